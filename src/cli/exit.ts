import { isRedisUnavailableError } from '../app.js';
import { isAccessRevokedError, isBudgetExhaustedError } from '../budget/index.js';
import { isConfigError } from '../config/config-error.js';
import { isLookupError } from '../lookup/lookup-error.js';
import { isRedisProblemError } from '../state/redis-problem.js';
import { isNoUpstreamError, isUpstreamError } from '../upstream/index.js';

/** Exit codes: 0 ok, 1 runtime failure, 2 usage or config error. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A failure the CLI explains in one message and maps to an exit code; never a stack trace for users. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

/** Type guard for {@link CliError}. */
export function isCliError(error: unknown): error is CliError {
  return error instanceof CliError;
}

/** Turns any error into what the user reads and the exit code; `nowMs` dates "the next token is in Ns". */
export function describeFailure(
  error: unknown,
  nowMs: number = Date.now(),
): { message: string; exitCode: number } {
  if (isCliError(error)) return { message: error.message, exitCode: error.exitCode };
  if (isConfigError(error)) return { message: error.message, exitCode: EXIT.usage };
  if (isLookupError(error)) return { message: error.message, exitCode: EXIT.usage };
  // A command that asks the upstream API, run on a registers-only config: the config's to change.
  if (isNoUpstreamError(error)) return { message: `${error.path}: ${error.message}`, exitCode: EXIT.usage };
  if (isRedisProblemError(error)) return { message: error.message, exitCode: EXIT.failure };
  if (isRedisUnavailableError(error)) {
    return {
      message: `Redis does not answer (${error.message}). Start one (e.g. \`redis-server\`, your package manager's redis package, or \`docker compose up -d redis\`) or point redis.url / REDIS_URL at one.`,
      exitCode: EXIT.failure,
    };
  }
  if (isBudgetExhaustedError(error)) {
    const wait = Math.max(0, Math.ceil((error.retryAt - nowMs) / 1000));
    return {
      message: `The shared rate budget has no token now (${error.reason}); the next one is in ${wait}s (${new Date(error.retryAt).toISOString()}). Run again with --wait to wait for it.`,
      exitCode: EXIT.failure,
    };
  }
  if (isAccessRevokedError(error)) {
    return {
      message: `Upstream access is stopped (${error.state}) since ${new Date(error.since).toISOString()}. Fix the key, then run \`shortwatch resume\`.`,
      exitCode: EXIT.failure,
    };
  }
  if (isUpstreamError(error)) {
    const status = error.status ? `${error.status} ` : '';
    return {
      message: `Upstream ${status}${error.code ? `${error.code}: ` : ''}${error.message}`,
      exitCode: EXIT.failure,
    };
  }
  return { message: error instanceof Error ? error.message : String(error), exitCode: EXIT.failure };
}
