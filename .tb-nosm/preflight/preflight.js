import { isConfigError } from "../config/config-error.js";
import { unresolvedSecrets } from "../config/unresolved-secret.js";
import { planFor } from "../jobs/plan-for.js";
import {
  describeProblem,
  isWholeDirectory,
  resolveWatchlist,
  watchEntries
} from "../jobs/watchlist.js";
import { channelUrlIssues } from "./channel-urls.js";
import { cronPatternProblem } from "./cron-pattern.js";
import { filterIssuerIssues, filtersNameIssuers } from "./filter-references.js";
const HEARTBEAT_TIMEZONE = "UTC";
function configIssues(config) {
  return [
    ...unreadSecretIssues(config),
    ...channelUrlIssues(config),
    ...cronIssues(config),
    ...planIssues(config)
  ];
}
function watchlistIssues(watchlist, directory) {
  const { watched, problems } = resolveWatchlist(watchlist, directory);
  if (isWholeDirectory(watchlist)) {
    const empty = {
      path: "watchlist",
      message: "is all, but the upstream's issuer list is empty: there is no issuer to watch"
    };
    return { watched, issues: directory.length === 0 ? [empty] : [] };
  }
  const issues = [];
  let next = 0;
  watchEntries(watchlist).forEach((entry, index) => {
    const problem = problems[next];
    if (!("name" in entry) || problem?.entry !== entry.name) return;
    next += 1;
    issues.push({ path: `watchlist[${index}].name`, message: describeProblem(problem) });
  });
  return { watched, issues };
}
function directoryIssues(config, directory) {
  const { watched, issues } = watchlistIssues(config.watchlist, directory);
  const plan = isWholeDirectory(config.watchlist) ? planIssues(config, directory) : [];
  return { watched, issues: [...issues, ...filterIssuerIssues(config, directory), ...plan] };
}
function needsDirectory(config) {
  const { watchlist } = config;
  if (config.upstream === void 0) return false;
  return isWholeDirectory(watchlist) || watchlist.some((entry) => "name" in entry) || filtersNameIssuers(config);
}
function unreadSecretIssues(config) {
  return unresolvedSecrets(config).flatMap((secret) => secret.problems);
}
function cronIssues(config) {
  const patterns = config.channels.flatMap(
    (channel, index) => channel.schedule === void 0 ? [] : [{ path: `channels[${index}].schedule`, pattern: channel.schedule, timezone: channel.timezone }]
  );
  if (config.ops.heartbeat !== void 0) {
    patterns.push({ path: "ops.heartbeat", pattern: config.ops.heartbeat, timezone: HEARTBEAT_TIMEZONE });
  }
  return patterns.flatMap(({ path, pattern, timezone }) => {
    const problem = cronPatternProblem(pattern, timezone);
    return problem === void 0 ? [] : [{ path, message: `"${pattern}" is not a cron pattern: ${problem}` }];
  });
}
function planIssues(config, directory = null) {
  try {
    planFor(config, directory);
    return [];
  } catch (error) {
    if (isConfigError(error)) return [...error.issues];
    throw error;
  }
}
export {
  configIssues,
  directoryIssues,
  needsDirectory,
  watchlistIssues
};
