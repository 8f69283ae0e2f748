import { type ConfigIssue, isConfigError } from '../config/config-error.js';
import type { Config, WatchEntry } from '../config/schema.js';
import { unresolvedSecrets } from '../config/unresolved-secret.js';
import { describeProblem, resolveWatchlist, type WatchedIssuer } from '../jobs/watchlist.js';
import { planFor } from '../plan-for.js';
import type { Issuer } from '../upstream/index.js';
import { cronPatternProblem } from './cron-pattern.js';

// The one validation `shortwatch check` and `shortwatch start` share: whatever start would refuse, check
// reports first, each problem at its key path. Both exit 2 on any of them.

/** The zone BullMQ runs the heartbeat cron in (jobs/schedulers.ts): `ops.heartbeat` is documented as UTC. */
const HEARTBEAT_TIMEZONE = 'UTC';

/**
 * Every problem `start` would refuse that shows without Redis or the upstream: secrets that could not be
 * read, cron patterns BullMQ would reject (or silently misread), a watchlist the budget cannot carry. Pure.
 */
export function configIssues(config: Config): ConfigIssue[] {
  return [...unreadSecretIssues(config), ...cronIssues(config), ...planIssues(config)];
}

/**
 * Binds the watchlist to the issuer directory as the sweep does; each name that matches no issuer, or
 * several, is an issue at its key path (`watchlist[3].name`). Ids are taken as given.
 */
export function watchlistIssues(
  entries: readonly WatchEntry[],
  directory: readonly Issuer[],
): { watched: WatchedIssuer[]; issues: ConfigIssue[] } {
  const { watched, problems } = resolveWatchlist(entries, directory);
  const issues: ConfigIssue[] = [];
  // Problems come in watchlist order, one for each name entry that does not resolve.
  let next = 0;
  entries.forEach((entry, index) => {
    const problem = problems[next];
    if (!('name' in entry) || problem?.entry !== entry.name) return;
    next += 1;
    issues.push({ path: `watchlist[${index}].name`, message: describeProblem(problem) });
  });
  return { watched, issues };
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

function planIssues(config: Config): ConfigIssue[] {
  try {
    planFor(config);
    return [];
  } catch (error) {
    if (isConfigError(error)) return [...error.issues];
    throw error;
  }
}
