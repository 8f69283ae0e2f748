import type { RateBudget } from '../../budget/index.js';
import type { Notices } from '../../state/notices.js';
import { RATE_LIMIT_LIFTED, RATE_LIMITED_NOTICE } from '../../upstream-clients.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** Whether the rate-limit notice is up, so that the budget is worth reading. */
export function rateLimitNoticeUp(active: readonly { key: string }[]): boolean {
  return active.some((notice) => notice.key === RATE_LIMITED_NOTICE);
}

/** Whether an up rate-limit notice clears: the block no longer probes (another deployment's probe ended it). */
export function rateLimitNoticeClears(usage: { probing: unknown }): boolean {
  return usage.probing === null;
}

/**
 * The budget's block is the credential's, shared with every deployment using the key: another
 * deployment's probe may end probing (or the block lapse unused), and this deployment's notice must
 * then clear too.
 */
export function rateLimitNotice(deps: {
  notices: Pick<Notices, 'list' | 'clear'>;
  budget: Pick<RateBudget, 'usage'>;
}): Duty {
  return {
    name: 'rate-limit-notice',
    periodMs: BEAT_MS,
    reads: "active notices, then the budget's block",
    writes: 'clears `upstream-rate-limited`',
    failure: 'could not compare the rate-limit notice with the budget',
    run: async () => {
      if (!rateLimitNoticeUp(await deps.notices.list())) return;
      if (!rateLimitNoticeClears(await deps.budget.usage())) return;
      await deps.notices.clear(RATE_LIMITED_NOTICE, RATE_LIMIT_LIFTED);
    },
  };
}
