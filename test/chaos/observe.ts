import { setTimeout as sleep } from 'node:timers/promises';
import { pollJobId } from '../../src/jobs/queues.js';
import type { Story } from './story.js';
import { ALERTS_TO, CHANNELS, type ChaosWorld, DIGEST_TO } from './world.js';

/** Issuers whose snapshot has not yet seen the dataset as of `target` (epoch ms of `last_updated`). */
async function lagging(world: ChaosWorld, target: number): Promise<string[]> {
  const snapshots = await world.snapshots.getMany(world.issuerIds);
  return world.issuerIds.filter((id) => {
    const seen = snapshots.get(id)?.lastUpdated;
    return !(seen && Date.parse(seen) >= target);
  });
}

/** Waits until every issuer saw the dataset of `target`; the issuers still behind at the timeout. */
export async function waitCaughtUp(world: ChaosWorld, target: number, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const behind = await lagging(world, target);
    if (behind.length === 0 || Date.now() > deadline) return behind;
    await sleep(200);
  }
}

/** Why some issuers are behind: their pending poll job for the current dataset, or their failed ones. */
export async function explainLag(
  world: ChaosWorld,
  behind: readonly string[],
  target: number,
): Promise<string> {
  const access = await world.access.get();
  const blocked = await world.redis.hgetall(world.stack.ledger.budgetBlocked).catch(() => ({}));
  const failed = await world.queues.poll.getFailed(0, 200);
  const parts = await Promise.all(
    behind.slice(0, 6).map(async (id) => {
      const pendingId = await world.queues.poll.getDeduplicationJobId(pollJobId(id, `v${target}`));
      const job = pendingId ? await world.queues.poll.getJob(pendingId) : undefined;
      const fails = failed.filter((j) => j.data?.issuerId === id).map((j) => j.failedReason.slice(0, 80));
      const pending = job
        ? `poll job ${job.id} ${await job.getState()} after ${job.attemptsMade} attempt(s)`
        : 'no pending poll job for this dataset';
      return `${id}: ${pending}${fails.length > 0 ? `; failed polls: ${fails.join(' | ')}` : ''}`;
    }),
  );
  return `${parts.join('; ')}; access ${access.state}; budget block ${JSON.stringify(blocked)}`;
}

/** What the outboxes still hold: per channel what waits or is in flight, and the digest's open period. */
async function undelivered(world: ChaosWorld): Promise<string[]> {
  const now = Date.now();
  const busy = await Promise.all(
    CHANNELS.map(async (channel) => {
      const depth = await world.outbox.depth(channel, now);
      const staged = await world.outbox.stagedCount(channel);
      const parts = [
        depth.waiting > 0 ? `${depth.waiting} waiting` : '',
        depth.inflight > 0 ? 'one in flight' : '',
        staged > 0 ? `${staged} staged for the digest` : '',
      ].filter(Boolean);
      return parts.length > 0 ? [`${channel} ${parts.join(', ')}`] : [];
    }),
  );
  return busy.flat();
}

/** After the last step: every outbox empty, the digest flushed, then a quiet spell for late repeats. */
export async function settle(
  world: ChaosWorld,
  story: Story,
  problems: string[],
  timeoutMs: number,
): Promise<void> {
  const startedAt = Date.now();
  let pending = await undelivered(world);
  while (pending.length > 0 && Date.now() - startedAt < timeoutMs) {
    await sleep(250);
    pending = await undelivered(world);
  }
  if (pending.length > 0) {
    problems.push(`deliveries did not settle: ${pending.join('; ')}`);
    story.add('fail', `deliveries still pending after ${timeoutMs} ms: ${pending.join('; ')}`);
    return;
  }
  await sleep(3_000);
  story.add(
    'saw',
    `outboxes empty in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (+3 s quiet); received ${describeCounts(sentCounts(world))}`,
  );
}

/** Parked messages (the dead letter), failed polls and the webhook's dropped repeats, for the story. */
export async function reportLeftovers(world: ChaosWorld, story: Story, problems: string[]): Promise<void> {
  for (const queue of world.queues.all()) {
    const failed = await queue.getFailed(0, 5);
    const count = await queue.getFailedCount();
    if (count === 0) continue;
    const reasons = failed.map((j) => `${j.id}: ${(j.failedReason ?? '').slice(0, 100)}`).join('; ');
    story.add('saw', `${queue.name}: ${count} failed job(s): ${reasons}`);
  }
  for (const channel of CHANNELS) {
    const parked = await world.outbox.parked(channel);
    if (parked.length === 0) continue;
    const what = parked
      .slice(0, 5)
      .map(
        (p) =>
          `${p.deliveryId} (${p.eventIds.length} event(s), ${p.attempts} attempt(s): ${p.lastError ?? '?'})`,
      );
    problems.push(`${channel}: ${parked.length} message(s) parked`);
    story.add('fail', `${channel}: ${parked.length} message(s) parked: ${what.join('; ')}`);
  }
  const repeats = world.receiver.repeats();
  if (repeats.length > 0) {
    story.add(
      'saw',
      `webhook receiver dropped ${repeats.length} repeated delivery id(s) (at-least-once resends): ${repeats.map((r) => r.deliveryId).join(', ')}`,
    );
  }
}

/** Messages received so far, by channel. */
export function sentCounts(world: ChaosWorld): Record<string, number> {
  const mails = world.stack.smtp.mails;
  const to = (who: string) => mails.filter((m) => JSON.stringify(m.parsed.to ?? '').includes(who)).length;
  return {
    hook: world.receiver.accepted().length,
    slack: world.stack.slack.delivered().length,
    email: to(ALERTS_TO),
    digest: to(DIGEST_TO),
  };
}

/** How often each string occurs. */
export function countBy(items: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

/** `a 2, b 1`, or `none`. */
export function describeCounts(counts: Record<string, number>): string {
  return (
    Object.entries(counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none'
  );
}
