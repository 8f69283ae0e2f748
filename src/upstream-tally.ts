import { isAccessRevokedError, isBudgetExhaustedError } from './budget/index.js';
import type { RequestPurpose } from './state/request-tally.js';
import type { UpstreamClient } from './upstream/index.js';
import type { ClientRole } from './upstream-clients.js';

/** The purpose of a call, from the client's role and the operation. */
export function purposeOf(role: ClientRole, operation: 'issuers' | 'active' | 'all'): RequestPurpose {
  if (role === 'probe') return 'probe';
  if (role === 'interactive') return 'interactive';
  if (operation === 'issuers') return 'issuer-list';
  return operation === 'all' ? 'history' : 'poll';
}

/** Where calls are counted: the budget's tally in the credential's ledger (`RateBudget.countCall`). */
export interface CallCounter {
  countCall(purpose: RequestPurpose): Promise<void>;
}

/**
 * The clients, each call counted in the shared request tally once it reached the upstream (a call the
 * budget or a revocation held back sent nothing). Counting never fails a call: the tally is for people.
 */
export function talliedClients(
  clients: Record<ClientRole, UpstreamClient>,
  tally: CallCounter,
): Record<ClientRole, UpstreamClient> {
  const wrap = (role: ClientRole): UpstreamClient => {
    const client = clients[role];
    const counted = async <T>(
      operation: 'issuers' | 'active' | 'all',
      call: () => Promise<T>,
    ): Promise<T> => {
      const count = () => void tally.countCall(purposeOf(role, operation)).catch(() => undefined);
      try {
        const result = await call();
        count();
        return result;
      } catch (error) {
        if (!isBudgetExhaustedError(error) && !isAccessRevokedError(error)) count();
        throw error;
      }
    };
    return {
      listIssuers: () => counted('issuers', () => client.listIssuers()),
      getPositions: (issuerId, status) =>
        counted(status === 'all' ? 'all' : 'active', () => client.getPositions(issuerId, status)),
      close: () => client.close(),
    };
  };
  return { polling: wrap('polling'), probe: wrap('probe'), interactive: wrap('interactive') };
}
