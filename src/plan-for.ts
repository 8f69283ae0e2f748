import { isPlanError, type Plan, planPolling } from './budget/index.js';
import { ConfigError } from './config/config-error.js';
import type { Config } from './config/schema.js';

/** Turns the config's watchlist size and caps into the polling plan; a watchlist that cannot fit is a config error. */
export function planFor(config: Config): Plan {
  try {
    return planPolling({
      watchlistSize: config.watchlist.length,
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
    if (isPlanError(error)) throw new ConfigError('plan', [{ path: 'watchlist', message: error.message }]);
    throw error;
  }
}
