import { displayText } from '../channels/format.js';
import type { Snapshot } from '../positions/index.js';
import { stateKeys } from '../state/keys.js';
import { describeRollback, type Rollback } from '../state/state-mark.js';
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
  // Before the sweep reads poll health: due marks that came back with lost writes start again first.
  const rollback = await ctx.stateMark.check();
  if (rollback) await reportRolledBack(ctx, rollback);
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

/** The notice of writes Redis lost (a failover to a replica that lacked them). */
export const ROLLED_BACK_NOTICE = 'state-rolled-back';

/**
 * Redis holds an older state than this process saw: one critical notice saying how far, and the due marks
 * started again (a poll-health record that went back must not read as polling behind). Then on: the
 * issuers whose snapshots went back are polled again, and receivers drop a repeated message by its id.
 */
export async function reportRolledBack(
  ctx: Pick<JobContext, 'notices' | 'pollHealth' | 'now' | 'logger'>,
  rollback: Rollback,
): Promise<void> {
  const how = describeRollback(rollback);
  ctx.logger.error({ rollback }, `Redis state went back: ${how}`);
  // The notice first: the operator must hear of it even if the rest fails while Redis settles.
  await ctx.notices.raise(
    ROLLED_BACK_NOTICE,
    'critical',
    'Redis lost writes: its state went back',
    `Redis holds an older state than shortwatch saw: ${how} are gone (a failover promoted a replica that lacked the master's last writes). Issuers whose snapshots went back are polled again and their changes told; a message whose "sent" record was lost may be sent again under the same delivery id, which receivers drop. Due marks of poll health start again (they came back with the lost writes). With redis.durability on (\`WAIT\`), no message is told before a replica holds what it depends on: docs/operations.md, "What a failover can lose".`,
  );
  await ctx.pollHealth.restartDueClocks(ctx.now());
}

/**
 * The rollback notice tells an event, not a state: any process's beat clears it once it is at least
 * `toldForMs` old (a rollback found later raises it again).
 */
export async function settleRolledBack(
  ctx: Pick<JobContext, 'notices' | 'now'>,
  toldForMs: number,
): Promise<void> {
  const active = (await ctx.notices.list()).find((n) => n.key === ROLLED_BACK_NOTICE);
  if (!active || ctx.now().getTime() - Date.parse(active.since) < toldForMs) return;
  await ctx.notices.clear(
    ROLLED_BACK_NOTICE,
    'shortwatch goes on from the state Redis holds now; what the lost writes held is polled and told again.',
  );
}
