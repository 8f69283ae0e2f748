import { isRedisUnavailableError } from "../app.js";
import { isAccessRevokedError, isBudgetExhaustedError } from "../budget/index.js";
import { isConfigError } from "../config/config-error.js";
import { isLookupError } from "../lookup/lookup-error.js";
import { isRedisProblemError } from "../state/redis-problem.js";
import { isNoUpstreamError, isUpstreamError } from "../upstream/index.js";
const EXIT = { ok: 0, failure: 1, usage: 2 };
class CliError extends Error {
  constructor(message, exitCode = EXIT.failure) {
    super(message);
    this.exitCode = exitCode;
  }
  exitCode;
  name = "CliError";
}
function isCliError(error) {
  return error instanceof CliError;
}
function describeFailure(error, nowMs = Date.now()) {
  if (isCliError(error)) return { message: error.message, exitCode: error.exitCode };
  if (isConfigError(error)) return { message: error.message, exitCode: EXIT.usage };
  if (isLookupError(error)) return { message: error.message, exitCode: EXIT.usage };
  if (isNoUpstreamError(error)) return { message: `${error.path}: ${error.message}`, exitCode: EXIT.usage };
  if (isRedisProblemError(error)) return { message: error.message, exitCode: EXIT.failure };
  if (isRedisUnavailableError(error)) {
    return {
      message: `Redis does not answer (${error.message}). Start one (e.g. \`redis-server\`, your package manager's redis package, or \`docker compose up -d redis\`) or point redis.url / REDIS_URL at one.`,
      exitCode: EXIT.failure
    };
  }
  if (isBudgetExhaustedError(error)) {
    const wait = Math.max(0, Math.ceil((error.retryAt - nowMs) / 1e3));
    return {
      message: `The shared rate budget has no token now (${error.reason}); the next one is in ${wait}s (${new Date(error.retryAt).toISOString()}). Run again with --wait to wait for it.`,
      exitCode: EXIT.failure
    };
  }
  if (isAccessRevokedError(error)) {
    return {
      message: `Upstream access is stopped (${error.state}) since ${new Date(error.since).toISOString()}. Fix the key, then run \`shortwatch resume\`.`,
      exitCode: EXIT.failure
    };
  }
  if (isUpstreamError(error)) {
    const status = error.status ? `${error.status} ` : "";
    return {
      message: `Upstream ${status}${error.code ? `${error.code}: ` : ""}${error.message}`,
      exitCode: EXIT.failure
    };
  }
  return { message: error instanceof Error ? error.message : String(error), exitCode: EXIT.failure };
}
export {
  CliError,
  EXIT,
  describeFailure,
  isCliError
};
