import type { RevokedState } from './access-state.js';
import type { DenyReason } from './rate-budget.js';

/** The shared budget refused a token; nothing was sent. Retry at `retryAt` (epoch ms), not before. */
export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';

  constructor(
    readonly reason: DenyReason,
    readonly retryAt: number,
  ) {
    super(`rate budget refused a request (${reason}); next token at ${new Date(retryAt).toISOString()}`);
  }
}

/** Type guard for {@link BudgetExhaustedError}. */
export function isBudgetExhaustedError(error: unknown): error is BudgetExhaustedError {
  return error instanceof BudgetExhaustedError;
}

/** Upstream access is revoked (401/403 seen); nothing is sent until a probe succeeds or the config changes. */
export class AccessRevokedError extends Error {
  override readonly name = 'AccessRevokedError';

  constructor(
    readonly state: RevokedState,
    readonly since: number,
  ) {
    super(
      `upstream access revoked (${state}) since ${new Date(since).toISOString()}; requests are held back`,
    );
  }
}

/** Type guard for {@link AccessRevokedError}. */
export function isAccessRevokedError(error: unknown): error is AccessRevokedError {
  return error instanceof AccessRevokedError;
}
