import { setTimeout as delay } from 'node:timers/promises';
import { NoApiAccessError, RateLimitedError, UnauthorizedError } from '../upstream/errors.js';
import type { RequestInfo, ResponseInfo } from '../upstream/request-info.js';
import type { AccessState, AccessStatus } from './access-state.js';
import { AccessRevokedError, BudgetExhaustedError } from './budget-errors.js';
import type { RateBudget } from './rate-budget.js';

/** What the guard ties together for one upstream client. */
export interface GuardOptions {
  budget: RateBudget;
  access: AccessState;
  /** {@link accessFingerprint} of the configured base URL and key, stored with a revocation. */
  fingerprint: string;
  /** CLI commands are interactive and may spend the reserve; polling is not. */
  interactive: boolean;
  /** This client sends the hourly access probe: allowed while access is revoked. */
  probe?: boolean;
  now?: () => number;
  /** Waits out the end of a budget window (see {@link RateBudget.sendableFrom}); default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Called once per revocation, by the one process whose response revoked access. */
  onRevoked?: (status: AccessStatus) => void | Promise<void>;
  /** Called after a 429 with the epoch ms until which nothing is sent. */
  onBlocked?: (untilMs: number, window: string | undefined) => void | Promise<void>;
  /** Called when a successful probe restored access. */
  onRestored?: () => void | Promise<void>;
}

/** The two hooks of the upstream client. */
export interface BudgetGuard {
  beforeRequest(info: RequestInfo): Promise<void>;
  afterResponse(info: ResponseInfo): Promise<void>;
}

/** Hooks that make every upstream attempt take a budget token and feed 429, 401 and 403 back into Redis. */
export function createBudgetGuard(options: GuardOptions): BudgetGuard {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  return {
    async beforeRequest() {
      // Never take a token in the last moment of a window: the request could be counted upstream in the next one.
      const sendable = options.budget.sendableFrom(now());
      if (sendable > now()) await sleep(sendable - now());
      const status = await options.access.get();
      // A revocation binds the key that was refused; a client configured with another key clears it.
      if (status.state !== 'ok' && status.fingerprint !== options.fingerprint) {
        await options.access.reconcile(options.fingerprint);
      } else if (status.state !== 'ok' && !options.probe) {
        throw new AccessRevokedError(status.state, status.since);
      }
      const decision = await options.budget.take({ interactive: options.interactive });
      if (!decision.granted) throw new BudgetExhaustedError(decision.reason, decision.retryAt);
    },
    async afterResponse(info) {
      const { error } = info;
      if (error instanceof RateLimitedError) {
        await recordRateLimit(options, error, info, now());
      } else if (error instanceof UnauthorizedError || error instanceof NoApiAccessError) {
        const state = error instanceof UnauthorizedError ? 'unauthorized' : 'no-api-access';
        if (await options.access.revoke(state, error.message, options.fingerprint)) {
          const status = await options.access.get();
          // The refused request was this hour's look at the key: the first probe comes an hour later,
          // not at the next sweep.
          await options.access.claimProbe();
          await options.onRevoked?.(status);
        }
      } else if (
        options.probe &&
        typeof info.status === 'number' &&
        info.status >= 200 &&
        info.status < 300
      ) {
        // Only the probe restores: any other 2xx was in flight before the revocation and proves less.
        if (await options.access.restore()) await options.onRestored?.();
      }
    },
  };
}

async function recordRateLimit(
  options: GuardOptions,
  error: RateLimitedError,
  info: ResponseInfo,
  at: number,
): Promise<void> {
  // Retry-After is the service's own word; without it, wait for the window it named to end.
  const until =
    error.retryAfterMs !== undefined
      ? at + error.retryAfterMs
      : options.budget.windowEnd(error.window === 'day' ? 'day' : 'minute', at);
  const window = error.window ?? 'unknown';
  await options.budget.block(
    until,
    `upstream answered 429 to ${info.method} ${info.path} (${window} window)`,
  );
  await options.onBlocked?.(until, error.window);
}
