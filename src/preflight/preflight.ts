import { type ConfigIssue, isConfigError } from '../config/config-error.js';
import type { Config, Watchlist } from '../config/schema.js';
import { unresolvedSecrets } from '../config/unresolved-secret.js';
import { planFor } from '../jobs/plan-for.js';
import {
  describeProblem,
  isWholeDirectory,
  resolveWatchlist,
  type WatchedIssuer,
  watchEntries,
} from '../jobs/watchlist.js';
import type { Issuer } from '../upstream/index.js';
import { channelUrlIssues } from './channel-urls.js';
import { cronPatternProblem } from './cron-pattern.js';
import { filterIssuerIssues, filtersNameIssuers } from './filter-references.js';

// The one validation `shortwatch check`, `shortwatch start` and a reload share: whatever start would
// refuse, check reports first, each problem at its key path. Both exit 2 on any of them. In three steps:
// the config alone (configIssues), against the issuer directory (directoryIssues), against the holders
// this deployment stored (filter-references.ts, filterHolderReview).

/** The zone BullMQ runs the heartbeat cron in (jobs/schedulers.ts): `ops.heartbeat` is documented as UTC. */
const HEARTBEAT_TIMEZONE = 'UTC';

/**
 * Every problem `start` would refuse that shows without Redis or the upstream: secrets that could not be
 * read, channel URLs that cannot be sent to, cron patterns BullMQ would reject (or silently misread), a
 * watchlist the budget cannot carry. Pure.
 */
export function configIssues(config: Config): ConfigIssue[] {
  return [
    ...unreadSecretIssues(config),
    ...channelUrlIssues(config),
    ...cronIssues(config),
    ...planIssues(config),
  ];
}

/**
 * Binds the watchlist to the issuer directory as the sweep does; each name that matches no issuer, or
 * several, is an issue at its key path (`watchlist[3].name`). Ids are taken as given. Under `all` there is
 * no name to resolve: every listed issuer is watched, and an empty list is the issue (nothing to watch).
 */
export function watchlistIssues(
  watchlist: Watchlist,
  directory: readonly Issuer[],
): { watched: WatchedIssuer[]; issues: ConfigIssue[] } {
  const { watched, problems } = resolveWatchlist(watchlist, directory);
  if (isWholeDirectory(watchlist)) {
    const empty = {
      path: 'watchlist',
      message: "is all, but the upstream's issuer list is empty: there is no issuer to watch",
    };
    return { watched, issues: directory.length === 0 ? [empty] : [] };
  }
  const issues: ConfigIssue[] = [];
  // Problems come in watchlist order, one for each name entry that does not resolve.
  let next = 0;
  watchEntries(watchlist).forEach((entry, index) => {
    const problem = problems[next];
    if (!('name' in entry) || problem?.entry !== entry.name) return;
    next += 1;
    issues.push({ path: `watchlist[${index}].name`, message: describeProblem(problem) });
  });
  return { watched, issues };
}

/**
 * The config against an issuer directory, as `start`, a reload and `check` all judge it: the watchlist's
 * names, the issuers the channel filters name, and under `all` the plan at the directory's size (a list's
 * plan is judged without the directory, in configIssues).
 */
export function directoryIssues(
  config: Config,
  directory: readonly Issuer[],
): { watched: WatchedIssuer[]; issues: ConfigIssue[] } {
  const { watched, issues } = watchlistIssues(config.watchlist, directory);
  const plan = isWholeDirectory(config.watchlist) ? planIssues(config, directory) : [];
  return { watched, issues: [...issues, ...filterIssuerIssues(config, directory), ...plan] };
}

/**
 * Whether the issuer directory decides anything: a name to resolve, the size of `all`, a filter's issuer.
 * Never without `upstream`: there is no directory, and a filter's issuers are the registers'.
 */
export function needsDirectory(config: Config): boolean {
  const { watchlist } = config;
  if (config.upstream === undefined) return false;
  return (
    isWholeDirectory(watchlist) || watchlist.some((entry) => 'name' in entry) || filtersNameIssuers(config)
  );
}

function unreadSecretIssues(config: Config): ConfigIssue[] {
  return unresolvedSecrets(config).flatMap((secret) => secret.problems);
}

function cronIssues(config: Config): ConfigIssue[] {
  const patterns = config.channels.flatMap((channel, index) =>
    channel.schedule === undefined
      ? []
      : [{ path: `channels[${index}].schedule`, pattern: channel.schedule, timezone: channel.timezone }],
  );
  if (config.ops.heartbeat !== undefined) {
    patterns.push({ path: 'ops.heartbeat', pattern: config.ops.heartbeat, timezone: HEARTBEAT_TIMEZONE });
  }
  return patterns.flatMap(({ path, pattern, timezone }) => {
    const problem = cronPatternProblem(pattern, timezone);
    return problem === undefined ? [] : [{ path, message: `"${pattern}" is not a cron pattern: ${problem}` }];
  });
}

function planIssues(config: Config, directory: readonly Issuer[] | null = null): ConfigIssue[] {
  try {
    planFor(config, directory);
    return [];
  } catch (error) {
    if (isConfigError(error)) return [...error.issues];
    throw error;
  }
}
