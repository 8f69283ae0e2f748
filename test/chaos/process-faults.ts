import { setTimeout as sleep } from 'node:timers/promises';
import type { Random } from '../../src/sandbox/prng.js';
import type { FaultContext } from './fault-context.js';
import type { Member } from './fleet.js';
import type { KillMoment } from './plan.js';
import { CHANNELS, type ChaosWorld } from './world.js';

/** Longer than BullMQ's default job lock (30 s): jobs in flight lose their locks while Redis is paused. */
export const REDIS_PAUSE_MS = 32_000;

/** What the deployment is doing right now, by queue: the moment a process fault hits. */
export async function activeWork(world: ChaosWorld): Promise<string> {
  const queues = [
    world.queues.sweep,
    world.queues.poll,
    world.queues.digest,
    ...CHANNELS.map((c) => world.queues.deliver(c)),
  ];
  const counts = await Promise.all(queues.map((q) => q.getActiveCount()));
  const busy = queues.flatMap((q, i) => ((counts[i] ?? 0) > 0 ? [`${q.name} ${counts[i]}`] : []));
  const [, locks] = await world.redis.scan('0', 'MATCH', `${world.prefix}:poll-lock:*`, 'COUNT', 1000);
  if (locks.length > 0) busy.push(`${locks.length} issuer poll lock(s) held`);
  return busy.join(', ') || 'nothing active';
}

/** Waits (up to `timeoutMs`) until the chosen kind of job is in flight somewhere in the fleet. */
async function awaitMoment(world: ChaosWorld, moment: KillMoment, timeoutMs: number): Promise<void> {
  const queues =
    moment === 'poll'
      ? [world.queues.poll]
      : moment === 'sweep'
        ? [world.queues.sweep]
        : moment === 'digest'
          ? [world.queues.digest, world.queues.deliver('morning')]
          : moment === 'deliver'
            ? CHANNELS.map((c) => world.queues.deliver(c))
            : [];
  const deadline = Date.now() + timeoutMs;
  while (queues.length > 0 && Date.now() < deadline) {
    const counts = await Promise.all(queues.map((q) => q.getActiveCount()));
    if (counts.some((n) => n > 0)) return;
    await sleep(15);
  }
}

/** SIGKILLs one member at the moment the rng picks, then starts it again. */
export async function killAndRestart(ctx: FaultContext, rng: Random, member: Member): Promise<void> {
  if (member.busy) {
    ctx.story.add('inject', `${member.name} is already down: no second kill`);
    return;
  }
  member.busy = true;
  try {
    await killWhile(ctx, rng, member);
  } finally {
    member.busy = false;
  }
}

async function killWhile(ctx: FaultContext, rng: Random, member: Member): Promise<void> {
  const moment = rng.pick(ctx.killMoments) ?? 'any';
  await awaitMoment(ctx.world, moment, 4_000);
  const doing = await activeWork(ctx.world);
  const at = Date.now();
  const pid = await ctx.world.fleet.kill(member);
  if (pid === undefined) {
    ctx.story.add('inject', `${member.name} was not running: no kill`);
    return;
  }
  ctx.hazards.push({ from: at, to: at, what: `SIGKILL of ${member.name} at ${ctx.story.elapsed()} ms` });
  ctx.story.add('inject', `SIGKILL ${member.name} (pid ${pid}) aiming at: ${moment}; active then: ${doing}`);
  await sleep(rng.int(200, 1_500));
  const started = Date.now();
  const next = await ctx.world.fleet.start(member);
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

/** Pauses the whole Redis (every user of it) for longer than the job lock. Long run only. */
export async function pauseRedis(ctx: FaultContext): Promise<void> {
  const at = Date.now();
  ctx.hazards.push({
    from: at,
    to: at + REDIS_PAUSE_MS + 5_000,
    what: `Redis paused at ${ctx.story.elapsed()} ms`,
  });
  ctx.story.add(
    'inject',
    `CLIENT PAUSE ${REDIS_PAUSE_MS} ALL: Redis answers nobody for longer than the 30 s job lock`,
  );
  await ctx.world.admin.call('CLIENT', 'PAUSE', String(REDIS_PAUSE_MS), 'ALL');
  await sleep(REDIS_PAUSE_MS + 500);
  ctx.story.add('saw', `Redis pause over; active now: ${await activeWork(ctx.world)}`);
}
