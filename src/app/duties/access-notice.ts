import { ACCESS_REVOKED_NOTICE } from '../../budget/access-state.js';
import type { AccessState } from '../../budget/index.js';
import type { Notices } from '../../state/notices.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** Whether the access notice is up, so that the access record is worth reading. */
export function accessNoticeUp(active: readonly { key: string }[]): boolean {
  return active.some((notice) => notice.key === ACCESS_REVOKED_NOTICE);
}

/** Whether an access notice that is up clears: access is back, whichever way it came back. */
export function accessNoticeClears(access: { state: string }): boolean {
  return access.state === 'ok';
}

/**
 * The access notice clears when access is back (a probe, a new key, a record cleared by a process of an
 * older version): the notice is read first, so one raised after the access read cannot be cleared by mistake.
 */
export function accessNotice(deps: {
  notices: Pick<Notices, 'list' | 'clear'>;
  access: Pick<AccessState, 'get'>;
}): Duty {
  return {
    name: 'access-notice',
    periodMs: BEAT_MS,
    reads: 'active notices, then the access record',
    writes: 'clears `access-revoked`',
    failure: 'could not compare the access notice with the access state',
    run: async () => {
      if (!accessNoticeUp(await deps.notices.list())) return;
      if (!accessNoticeClears(await deps.access.get())) return;
      await deps.notices.clear(ACCESS_REVOKED_NOTICE, 'Upstream access is back; polling resumes.');
    },
  };
}

/**
 * At a start or a reload: a revocation recorded for another credential than the config's is cleared
 * (a new key works at once), and with it the access notice.
 */
export async function reconcileAccess(
  deps: { access: Pick<AccessState, 'reconcile'>; notices: Pick<Notices, 'clear'> },
  fingerprint: string,
): Promise<void> {
  if (await deps.access.reconcile(fingerprint)) {
    await deps.notices.clear(ACCESS_REVOKED_NOTICE, 'The upstream key or URL changed; polling resumes.');
  }
}
