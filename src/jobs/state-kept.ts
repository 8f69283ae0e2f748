import { displayText } from '../channels/format.js';
import type { Snapshot } from '../positions/index.js';
import { stateKeys } from '../state/keys.js';
import type { JobContext } from './context.js';
import type { WatchedIssuer } from './watchlist.js';

/**
 * Tells the operator when Redis lost shortwatch's state under a live deployment (a new epoch) or some
 * snapshots vanished (eviction, a manual delete): the issuers concerned are re-baselined silently at their
 * next poll, so changes published in the gap are never told, and the operator must know that.
 */
export async function checkStateKept(
  ctx: JobContext,
  watched: readonly WatchedIssuer[],
  snapshots: ReadonlyMap<string, Snapshot>,
): Promise<void> {
  const epoch = await ctx.epoch.check();
  const without = watched.filter((w) => !snapshots.has(w.id));
  if (epoch.lost) {
    await reportStateLost(ctx, epoch.previous, without.length);
    return;
  }
  const flags =
    without.length === 0
      ? []
      : await ctx.redis.smismember(stateKeys(ctx.prefix).baselined, ...without.map((w) => w.id));
  const marked = without.filter((_, i) => flags[i] === 1);
  // A poll may commit between the sweep's read of the snapshots and this read of the marks (its first
  // snapshot and its mark are one write): a snapshot present now did not vanish.
  const present = marked.length === 0 ? new Map() : await ctx.snapshots.getMany(marked.map((w) => w.id));
  const vanished = marked.filter((w) => !present.has(w.id));
  if (vanished.length > 0) {
    await ctx.notices.raise(
      'snapshots-vanished',
      'critical',
      'Snapshots vanished from Redis',
      `The snapshots of ${vanished.length} watched issuers are gone although shortwatch wrote them (eviction under \`maxmemory\`, or a manual delete): ${vanished.map((w) => `${displayText(w.name)} (${displayText(w.id)})`).join(', ')}. They are re-baselined at their next poll; changes published since they vanished are not told.`,
    );
  } else if (without.length === 0) {
    await ctx.notices.clear('snapshots-vanished', 'Every watched issuer has a snapshot again.');
    await ctx.notices.clear('state-lost', 'Every watched issuer has a snapshot again.');
  }
}

/** One critical notice: the Redis state this deployment ran on is gone. */
export async function reportStateLost(
  ctx: JobContext,
  previousEpoch: string,
  rebaselined: number,
): Promise<void> {
  await ctx.notices.raise(
    'state-lost',
    'critical',
    "Redis lost shortwatch's state",
    `The state this deployment ran on (epoch ${previousEpoch}) is gone: snapshots, queued deliveries, schedules and notices were lost (a FLUSHALL, a Redis restart without persistence, or a failover to an empty replica). ${rebaselined} watched issuers are re-baselined at their next poll; changes published since the loss are not told. Check Redis persistence and \`maxmemory-policy noeviction\`.`,
  );
}
