import { setTimeout as delay } from "node:timers/promises";
import { NoApiAccessError, RateLimitedError, UnauthorizedError } from "../upstream/errors.js";
import { AccessRevokedError, BudgetExhaustedError } from "./budget-errors.js";
import { ProbeClaims } from "./probe-claims.js";
import { recordRateLimit } from "./record-rate-limit.js";
function createBudgetGuard(options) {
  const sleep = options.sleep ?? ((ms) => delay(ms));
  const claims = new ProbeClaims();
  return {
    async beforeRequest(info) {
      for (; ; ) {
        await checkAccess(options);
        const decision = await options.budget.take({
          interactive: options.interactive,
          holdNearWindowEnd: true
        });
        if (decision.granted) {
          if (decision.probeClaim !== null) claims.add(info, decision.probeClaim);
          return;
        }
        if (decision.reason !== "window-end")
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
      if (probeClaim !== void 0 && typeof info.status === "number" && info.status < 500) {
        if (await options.budget.endProbe(probeClaim)) await options.onRateLimitLifted?.();
      }
      if (error instanceof UnauthorizedError || error instanceof NoApiAccessError) {
        if (options.interactive) await options.access.requestConfirmation(options.fingerprint);
        else await recordRevocation(options, error);
      } else if (options.probe && typeof info.status === "number" && info.status >= 200 && info.status < 300) {
        if (await options.access.restore()) await options.onRestored?.();
      }
    }
  };
}
async function checkAccess(options) {
  const status = await options.access.get();
  if (status.state === "ok") return;
  if (status.fingerprint !== options.fingerprint) {
    if (!options.interactive && await options.access.reconcile(options.fingerprint)) {
      await options.onRestored?.();
    }
  } else if (!options.probe) {
    throw new AccessRevokedError(status.state, status.since);
  }
}
async function recordRevocation(options, error) {
  const state = error instanceof UnauthorizedError ? "unauthorized" : "no-api-access";
  if (await options.access.revoke(state, error.message, options.fingerprint)) {
    const status = await options.access.get();
    await options.access.claimProbe();
    await options.onRevoked?.(status);
  }
}
export {
  createBudgetGuard
};
