import type { IssuerList } from '../upstream/schemas.js';
import type { JobContext } from './context.js';

// An issuer list that suddenly lists far fewer issuers is more likely a partial answer (a cache node, a
// page of a list the spec does not page) than a register delisting most of its issuers at once. Taken at
// its word it would stop the polls of every issuer it leaves out: under `watchlist: all` silently, and for
// names as unresolved entries. So such a list is set aside, the last full list stays in use, and the
// operator is told; the same short list seen on enough consecutive checks is believed.

/** Issuers a list may lose against the last saved one before it is suspect: a fifth, and at least ten. */
export function suspectShrink(previous: number, fresh: number): boolean {
  const lost = previous - fresh;
  return lost >= Math.max(10, Math.ceil(previous / 5));
}

/** Consecutive checks that must list the same shorter count before it is believed. */
export const SHRINK_BELIEVED_AFTER = 3;

const NOTICE = 'directory-shrank';

/**
 * Whether the fresh list is used: true for a list of the usual size, or a shorter one seen
 * {@link SHRINK_BELIEVED_AFTER} checks in a row; false for a suspect one (the saved list is used then).
 * Keeps the count of consecutive suspect lists in the sweep hash and the notice in step.
 */
export async function acceptIssuerList(
  ctx: JobContext,
  fresh: IssuerList,
  previousCount: number | null,
  sweepKey: string,
): Promise<boolean> {
  if (previousCount === null || !suspectShrink(previousCount, fresh.data.length)) {
    if ((await ctx.redis.hdel(sweepKey, 'shrinkSeen', 'shrinkCount')) > 0) {
      await ctx.notices.clear(NOTICE, 'The issuer list is whole again.');
    }
    return true;
  }
  const [seen, count] = await ctx.redis.hmget(sweepKey, 'shrinkSeen', 'shrinkCount');
  const streak = Number(count) === fresh.data.length ? Number(seen ?? 0) + 1 : 1;
  if (streak >= SHRINK_BELIEVED_AFTER) {
    await ctx.redis.hdel(sweepKey, 'shrinkSeen', 'shrinkCount');
    await ctx.notices.clear(
      NOTICE,
      `The issuer list stayed at ${fresh.data.length} issuers for ${streak} checks in a row: taken as the register's.`,
    );
    return true;
  }
  await ctx.redis.hset(sweepKey, 'shrinkSeen', streak, 'shrinkCount', fresh.data.length);
  await ctx.notices.raise(
    NOTICE,
    'warning',
    'The issuer list came back much shorter: taken as a partial answer',
    `GET /issuers listed ${fresh.data.length} issuers where the last list had ${previousCount}. The last full list stays in use (its issuers go on being polled) until the same shorter list is seen on ${SHRINK_BELIEVED_AFTER} checks in a row.`,
  );
  return false;
}
