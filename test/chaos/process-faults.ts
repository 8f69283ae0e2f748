import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import type { Random } from '../../src/sandbox/prng.js';
import { stateKeys } from '../../src/state/keys.js';
import type { FaultContext } from './fault-context.js';
import type { Member } from './fleet.js';
import type { KillMoment } from './plan.js';
import { CHANNELS, type ChaosWorld, IMMEDIATE_CHANNELS } from './world.js';

/** Longer than BullMQ's default job lock (30 s) and the drain lease (6 s): every lease lapses while Redis is paused. */
export const REDIS_PAUSE_MS = 32_000;

/** Every key matching `pattern`, over the whole SCAN. */
async function scanAll(world: ChaosWorld, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await world.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** The fleet member a lease owner (`<host>-<pid>-<incarnation>|…`) belongs to, by pid. */
function holderName(world: ChaosWorld, owner: string | null): string {
  const pid = Number(/^.*-(\d+)-[0-9a-f]+(?:\||$)/.exec(owner ?? '')?.[1]);
  return world.fleet.members.find((m) => world.fleet.pid(m) === pid)?.name ?? 'nobody';
}

/** A message claimed and not yet finished, and the member holding its channel's drain lease. */
interface InFlight {
  channel: string;
  type: string;
  attempt: number;
  sender: string;
}

/** Channels with a message in flight, and who sends it. */
async function inflightChannels(world: ChaosWorld, channels: readonly string[]): Promise<InFlight[]> {
  const keys = stateKeys(world.root);
  const found = await Promise.all(
    channels.map(async (channel) => {
      const inflight = await world.outbox.inflight(channel);
      if (!inflight) return [];
      const sender = holderName(world, await world.redis.get(keys.outbox(channel).lease));
      return [{ channel, type: inflight.message.type, attempt: inflight.attempts + 1, sender }];
    }),
  );
  return found.flat();
}

/** What the deployment is doing right now: jobs by queue, messages in flight, poll leases. */
export async function activeWork(world: ChaosWorld): Promise<string> {
  const queues = world.queues.all();
  const counts = await Promise.all(queues.map((q) => q.getActiveCount()));
  const busy = queues.flatMap((q, i) => ((counts[i] ?? 0) > 0 ? [`${q.name} ${counts[i]}`] : []));
  for (const f of await inflightChannels(world, CHANNELS)) {
    busy.push(`in flight: ${f.channel} ${f.type} attempt ${f.attempt} (sender ${f.sender})`);
  }
  const leases = await scanAll(world, stateKeys(world.root).pollLease('*'));
  if (leases.length > 0) busy.push(`${leases.length} issuer poll lease(s) held`);
  return busy.join(', ') || 'nothing active';
}

/** Whether the chosen kind of work is in flight somewhere in the fleet right now. */
export async function atMoment(world: ChaosWorld, moment: KillMoment): Promise<boolean> {
  const active = async (queue: Queue) => (await queue.getActiveCount()) > 0;
  switch (moment) {
    case 'poll':
      return active(world.queues.poll);
    case 'sweep':
      return active(world.queues.sweep);
    case 'digest':
      return (await active(world.queues.digest)) || (await world.outbox.inflight('morning')) !== null;
    case 'deliver':
      return (await inflightChannels(world, IMMEDIATE_CHANNELS)).length > 0;
    case 'any':
      return true;
  }
}

/** Polls `check` every 15 ms until it holds or `timeoutMs` has passed. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !(await check())) await sleep(15);
}

/** The members holding a channel's drain lease (the ones that send), among `members`. */
export async function senders(world: ChaosWorld, members: readonly Member[]): Promise<Member[]> {
  const keys = stateKeys(world.root);
  const owners = await Promise.all(CHANNELS.map((c) => world.redis.get(keys.outbox(c).lease)));
  const names = new Set(owners.map((owner) => holderName(world, owner)));
  return members.filter((m) => names.has(m.name));
}

/**
 * SIGKILLs one member at `moment`, then starts it again. A kill aimed at a delivery waits for a message
 * in flight on a channel this member sends (a crash inside a send); no moment is waited for past 4 s.
 */
export async function killAndRestart(
  ctx: FaultContext,
  rng: Random,
  member: Member,
  moment: KillMoment,
): Promise<void> {
  if (member.busy) {
    ctx.story.add('inject', `${member.name} is already down: no second kill`);
    return;
  }
  member.busy = true;
  try {
    await killWhile(ctx, rng, member, moment);
  } finally {
    member.busy = false;
  }
}

async function killWhile(ctx: FaultContext, rng: Random, member: Member, moment: KillMoment): Promise<void> {
  const { world } = ctx;
  const sending = async () =>
    (await inflightChannels(world, IMMEDIATE_CHANNELS)).some((f) => f.sender === member.name);
  if (moment === 'deliver') await waitUntil(sending, 4_000);
  else await waitUntil(() => atMoment(world, moment), 4_000);
  const doing = await activeWork(world);
  const at = Date.now();
  const pid = await world.fleet.kill(member);
  if (pid === undefined) {
    ctx.story.add('inject', `${member.name} was not running: no kill`);
    return;
  }
  ctx.hazards.push({ from: at, to: at, what: `SIGKILL of ${member.name} at ${ctx.story.elapsed()} ms` });
  ctx.story.add('inject', `SIGKILL ${member.name} (pid ${pid}) aiming at: ${moment}; active then: ${doing}`);
  await sleep(rng.int(200, 1_500));
  const started = Date.now();
  const next = await world.fleet.start(member);
  ctx.story.add('saw', `${member.name} restarted as pid ${next}, ready in ${Date.now() - started} ms`);
}

/** Kills some of this deployment's Redis connections, found by the names shortwatch gives them. */
export async function killRedisClients(ctx: FaultContext, rng: Random): Promise<void> {
  const { admin, prefix } = ctx.world;
  const list = String(await admin.call('CLIENT', 'LIST'));
  const ours = list
    .split('\n')
    .map((line) => ({ id: /\bid=(\d+)/.exec(line)?.[1], name: /\bname=(\S*)/.exec(line)?.[1] ?? '' }))
    .filter((c): c is { id: string; name: string } => c.id !== undefined && c.name.startsWith(`${prefix}:`));
  const victims = rng.sample(ours, rng.int(1, Math.max(1, ours.length)));
  const at = Date.now();
  let killed = 0;
  for (const victim of victims) {
    killed += Number(await admin.call('CLIENT', 'KILL', 'ID', victim.id).catch(() => 0));
  }
  ctx.hazards.push({
    from: at,
    to: at + 1_000,
    what: `Redis connections killed at ${ctx.story.elapsed()} ms`,
  });
  const kinds = new Set(victims.map((v) => v.name.split(':').at(-1)?.slice(0, 12)));
  ctx.story.add(
    'inject',
    `CLIENT KILL of ${killed} of ${ours.length} Redis connections of this deployment (${[...kinds].join(', ')})`,
  );
}

/** Pauses the whole Redis (every user of it) for longer than the job lock and every lease. Long run only. */
export async function pauseRedis(ctx: FaultContext): Promise<void> {
  const at = Date.now();
  ctx.hazards.push({
    from: at,
    to: at + REDIS_PAUSE_MS + 5_000,
    what: `Redis paused at ${ctx.story.elapsed()} ms`,
  });
  ctx.story.add(
    'inject',
    `CLIENT PAUSE ${REDIS_PAUSE_MS} ALL: Redis answers nobody for longer than the 30 s job lock and every lease`,
  );
  await ctx.world.admin.call('CLIENT', 'PAUSE', String(REDIS_PAUSE_MS), 'ALL');
  await sleep(REDIS_PAUSE_MS + 500);
  ctx.story.add('saw', `Redis pause over; active now: ${await activeWork(ctx.world)}`);
}
