import { setTimeout as delay } from 'node:timers/promises';
import { NoApiAccessError, RateLimitedError, UnauthorizedError } from '../upstream/errors.js';
import type { RequestInfo, ResponseInfo } from '../upstream/request-info.js';
import type { AccessState, AccessStatus } from './access-state.js';
import { AccessRevokedError, BudgetExhaustedError } from './budget-errors.js';
import { ProbeClaims } from './probe-claims.js';
import type { BlockResult, RateBudget } from './rate-budget.js';
import { recordRateLimit } from './record-rate-limit.js';

/** What the guard ties together for one upstream client. */
export interface GuardOptions {
  budget: RateBudget;
  access: AccessState;
  /** {@link accessFingerprint} of the configured base URL and key, stored with a revocation. */
  fingerprint: string;
  /**
   * CLI commands are interactive and may spend the reserve; polling is not. An interactive client never
   * changes the shared access state itself: its 401/403 asks the daemon with the same key to check.
   */
  interactive: boolean;
  /** This client sends the hourly access probe: allowed while access is revoked. */
  probe?: boolean;
  /** After a 429 without Retry-After for the day window or none: one request this often (`budget.probeInterval`). */
  rateLimitProbeMs: number;
  /** Waits out the end of a budget window (see {@link RateBudget.take}'s hold); default a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Called once per revocation, by the one process whose response revoked access. */
  onRevoked?: (status: AccessStatus) => void | Promise<void>;
  /**
   * Called after a 429 with the epoch ms (Redis' clock) until which nothing is sent (while probing: the
   * next probe), the window the 429 named, and what the block became.
   */
  onBlocked?: (untilMs: number, window: string | undefined, block: BlockResult) => void | Promise<void>;
  /** Called when access was restored: a successful probe, or a daemon configured with another key. */
  onRestored?: () => void | Promise<void>;
  /** Called when the answer to a rate-limit probe ended probing: requests flow again. */
  onRateLimitLifted?: () => void | Promise<void>;
}

/** The two hooks of the upstream client. */
export interface BudgetGuard {
  beforeRequest(info: RequestInfo): Promise<void>;
  afterResponse(info: ResponseInfo): Promise<void>;
}

/** Hooks that make every upstream attempt take a budget token and feed 429, 401 and 403 back into Redis. */
export function createBudgetGuard(options: GuardOptions): BudgetGuard {
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  // The tokens this guard handed out as the rate-limit probe, by request, until their answer comes.
  const claims = new ProbeClaims();
  return {
    async beforeRequest(info) {
      for (;;) {
        await checkAccess(options);
        // Never take a token in the last moment of a window: the request could be counted upstream in
        // the next one. The script says how long to wait, by Redis' clock.
        const decision = await options.budget.take({
          interactive: options.interactive,
          holdNearWindowEnd: true,
        });
        if (decision.granted) {
          if (decision.probeClaim !== null) claims.add(info, decision.probeClaim);
          return;
        }
        if (decision.reason !== 'window-end')
          throw new BudgetExhaustedError(decision.reason, decision.retryAt);
        await sleep(decision.retryInMs);
      }
    },
    async afterResponse(info) {
      const { error } = info;
      const probeClaim = claims.take(info);
      if (error instanceof RateLimitedError) {
        const block = await recordRateLimit(options, error, info);
        await options.onBlocked?.(block.until, error.window, block);
        return;
      }
      // Any answer but a 429 or a 5xx shows the limit is off; only the probe's answer counts, as others
      // may have been sent before the 429 that began probing.
      if (probeClaim !== undefined && typeof info.status === 'number' && info.status < 500) {
        if (await options.budget.endProbe(probeClaim)) await options.onRateLimitLifted?.();
      }
      if (error instanceof UnauthorizedError || error instanceof NoApiAccessError) {
        // A colleague's `check` with a wrong key must not stop the daemon: only the daemon's own request counts.
        if (options.interactive) await options.access.requestConfirmation(options.fingerprint);
        else await recordRevocation(options, error);
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

async function checkAccess(options: GuardOptions): Promise<void> {
  const status = await options.access.get();
  if (status.state === 'ok') return;
  if (status.fingerprint !== options.fingerprint) {
    // A revocation binds the key that was refused. A daemon configured with another key clears it (and
    // its notice); an interactive command with another key (a colleague's) goes ahead and clears nothing.
    if (!options.interactive && (await options.access.reconcile(options.fingerprint))) {
      await options.onRestored?.();
    }
  } else if (!options.probe) {
    throw new AccessRevokedError(status.state, status.since);
  }
}

async function recordRevocation(
  options: GuardOptions,
  error: UnauthorizedError | NoApiAccessError,
): Promise<void> {
  const state = error instanceof UnauthorizedError ? 'unauthorized' : 'no-api-access';
  if (await options.access.revoke(state, error.message, options.fingerprint)) {
    const status = await options.access.get();
    // The refused request was this hour's look at the key: the first probe comes an hour later,
    // not at the next sweep.
    await options.access.claimProbe();
    await options.onRevoked?.(status);
  }
}
