import { isPlanError, type Plan, planPolling } from '../budget/index.js';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/schema.js';
import type { Issuer } from '../upstream/schemas.js';
import { isWholeDirectory } from './watchlist.js';

/**
 * How many issuers the plan is for: the watchlist's entries, or under `watchlist: all` the issuers of the
 * directory given (none while it is not known: a daemon plans again once a sweep saves it).
 */
export function plannedSize(config: Config, directory: readonly Issuer[] | null = null): number {
  return isWholeDirectory(config.watchlist) ? (directory?.length ?? 0) : config.watchlist.length;
}

/**
 * Turns the watchlist size and the caps into the polling plan; a watchlist that cannot fit is a config
 * error on `watchlist`. Under `watchlist: all` the size is the directory's, so pass the issuer list known.
 */
export function planFor(config: Config, directory: readonly Issuer[] | null = null): Plan {
  const size = plannedSize(config, directory);
  try {
    return planPolling({
      watchlistSize: size,
      perMinute: config.budget.perMinute,
      perDay: config.budget.perDay,
      reserve: config.budget.reserve,
      gate: config.poll.gate,
      gateIntervalMs: config.poll.gateInterval,
      intervalMs: config.poll.interval,
      maxStalenessMs: config.poll.maxStaleness,
      dayMs: config.budget.dayWindow,
      minuteMs: config.budget.minuteWindow,
      gateShare: config.budget.gateShare,
    });
  } catch (error) {
    if (!isPlanError(error)) throw error;
    const message = isWholeDirectory(config.watchlist)
      ? `is all, the whole directory of ${size} issuers: ${error.message}`
      : error.message;
    throw new ConfigError('plan', [{ path: 'watchlist', message }]);
  }
}

/**
 * The watchlist in words, for `plan`, `check` and `status`: "12 issuers", or under `all` "the whole
 * directory, 4,812 issuers" and where that number comes from.
 */
export function describeWatchlist(
  config: Config,
  directory: { issuers: readonly Issuer[]; source: string } | null,
): string {
  if (!isWholeDirectory(config.watchlist)) return issuers(config.watchlist.length);
  if (directory === null) {
    return 'the whole directory (watchlist: all), whose size is not known: the upstream could not be asked and no sweep has saved the issuer list';
  }
  return `the whole directory (watchlist: all), ${issuers(directory.issuers.length)} as ${directory.source} lists them; the plan follows the directory as issuers join and leave it`;
}

function issuers(count: number): string {
  return `${count} ${count === 1 ? 'issuer' : 'issuers'}`;
}
