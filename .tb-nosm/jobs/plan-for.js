import { isPlanError, planPolling } from "../budget/index.js";
import { ConfigError } from "../config/config-error.js";
import { isWholeDirectory } from "./watchlist.js";
function plannedSize(config, directory = null) {
  return isWholeDirectory(config.watchlist) ? directory?.length ?? 0 : config.watchlist.length;
}
function planFor(config, directory = null) {
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
      gateShare: config.budget.gateShare
    });
  } catch (error) {
    if (!isPlanError(error)) throw error;
    const message = isWholeDirectory(config.watchlist) ? `is all, the whole directory of ${size} issuers: ${error.message}` : error.message;
    throw new ConfigError("plan", [{ path: "watchlist", message }]);
  }
}
function describeWatchlist(config, directory) {
  if (!isWholeDirectory(config.watchlist)) return issuers(config.watchlist.length);
  if (directory === null) {
    return "the whole directory (watchlist: all), whose size is not known: the upstream could not be asked and no sweep has saved the issuer list";
  }
  return `the whole directory (watchlist: all), ${issuers(directory.issuers.length)} as ${directory.source} lists them; the plan follows the directory as issuers join and leave it`;
}
function issuers(count) {
  return `${count} ${count === 1 ? "issuer" : "issuers"}`;
}
export {
  describeWatchlist,
  planFor,
  plannedSize
};
