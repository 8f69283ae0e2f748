import { setTimeout as sleep } from 'node:timers/promises';
import { Random } from '../../src/sandbox/prng.js';
import { runShortwatch, waitFor } from '../e2e/harness.js';
import type { Member } from './fleet.js';
import type { FaultName, KillMoment, PlannedFault } from './plan.js';
import type { Story } from './story.js';
import { CHANNELS, type ChaosWorld, UPSTREAM_TIMEOUT_MS } from './world.js';

/**
 * A moment at which a message may legitimately be sent twice: the send was accepted but the job's
 * completion was lost (a process killed, a Redis connection cut, an SMTP connection dropped after the
 * server took the message). Duplicates near one are reported as at-least-once cases, not as bugs.
 */
export interface Hazard {
  from: number;
  to: number;
  what: string;
}

/** What a fault acts on and where it reports. */
export interface FaultContext {
  world: ChaosWorld;
  story: Story;
  hazards: Hazard[];
  /** Problems the faults themselves detected (e.g. a 401 that did not stop polling). */
  problems: string[];
  /** Issuers whose data changed in this step. */
  changedIssuers: readonly string[];
  /** The moments process kills aim at. */
  killMoments: readonly KillMoment[];
}

type FaultRun = (ctx: FaultContext, rng: Random) => Promise<void>;

/** Longer than BullMQ's default job lock (30 s): jobs in flight lose their locks while Redis is paused. */
export const REDIS_PAUSE_MS = 32_000;

const RUNS = {
  'kill-worker': (ctx, rng) => {
    const workers = ctx.world.fleet.members.filter((m) => m.role === 'worker' && !m.busy);
    const member = rng.pick(workers);
    return member ? killAndRestart(ctx, rng, member) : Promise.resolve();
  },
  'kill-daemon': (ctx, rng) => {
    const member = ctx.world.fleet.members.find((m) => m.role === 'start');
    return member ? killAndRestart(ctx, rng, member) : Promise.resolve();
  },
  'redis-client-kill': killRedisClients,
  'redis-pause': pauseRedis,
  'upstream-5xx': async (ctx, rng) => {
    const status = rng.pick([500, 502, 503, 504]) ?? 503;
    const times = rng.int(1, 4);
    const operation = rng.pick(['positions', 'issuers', undefined] as const);
    ctx.world.stack.sandbox.faults.inject({ status, times, operation });
    ctx.story.add(
      'inject',
      `upstream answers ${status} to the next ${times} ${operation ?? 'any'} request(s)`,
    );
  },
  'upstream-timeout': async (ctx, rng) => {
    const times = rng.int(1, 2);
    const delayMs = UPSTREAM_TIMEOUT_MS + 800;
    ctx.world.stack.sandbox.faults.inject({ delayMs, times, operation: 'positions' });
    ctx.story.add(
      'inject',
      `upstream stalls ${delayMs} ms (past the ${UPSTREAM_TIMEOUT_MS} ms timeout) on ${times} positions request(s)`,
    );
  },
  'upstream-malformed': (ctx, rng) => badBody(ctx, rng, 'malformed'),
  'upstream-schema': (ctx, rng) => badBody(ctx, rng, 'schema'),
  'upstream-issuer-outage': async (ctx, rng) => {
    const issuerId = rng.pick(ctx.changedIssuers) ?? rng.pick(ctx.world.issuerIds) ?? '';
    // Seven failures outlast one poll job (3 attempts of 2 requests each): the job ends failed.
    ctx.world.stack.sandbox.faults.inject({ issuerId, status: 503, times: 7 });
    ctx.story.add(
      'inject',
      `issuer ${issuerId} answers 503 to its next 7 positions requests (outlasts a poll job's retries)`,
    );
  },
  'upstream-429-minute': async (ctx) => {
    ctx.world.stack.sandbox.faults.rateLimit('minute');
    ctx.story.add(
      'inject',
      'upstream answers 429 (window: minute, Retry-After to the window end) to the next request',
    );
  },
  'upstream-429-day': async (ctx, rng) => {
    const faults = ctx.world.stack.sandbox.faults;
    if (rng.chance(0.5)) {
      faults.rateLimit('day');
      ctx.story.add('inject', 'upstream answers 429 (window: day, with Retry-After) to the next request');
      return;
    }
    faults.inject({
      status: 429,
      body: {
        error: 'rate_limit_exceeded',
        message: 'Daily request limit reached: 1000 requests per day. Try again tomorrow.',
        limit: 1000,
        window: 'day',
      },
    });
    ctx.story.add('inject', 'upstream answers 429 (window: day, no Retry-After) to the next request');
  },
  'upstream-401': unauthorizedEpisode,
  'slack-429': async (ctx, rng) => {
    const seconds = rng.int(1, 2);
    ctx.world.stack.slack.script({
      status: 429,
      headers: { 'retry-after': String(seconds) },
      body: 'rate_limited',
    });
    ctx.story.add('inject', `Slack answers the next post 429 with Retry-After: ${seconds}`);
  },
  'slack-500': async (ctx, rng) => {
    const times = rng.int(1, 3);
    for (let i = 0; i < times; i++) ctx.world.stack.slack.script({ status: 500, body: 'rollup_error' });
    ctx.story.add('inject', `Slack answers the next ${times} post(s) 500 rollup_error`);
  },
  'slack-slow': async (ctx, rng) => {
    const times = rng.int(1, 2);
    const delayMs = rng.int(800, 3_000);
    for (let i = 0; i < times; i++) ctx.world.stack.slack.script({ status: 200, delayMs });
    ctx.story.add('inject', `Slack takes ${delayMs} ms to answer the next ${times} post(s)`);
  },
  'smtp-451': async (ctx, rng) => {
    const times = rng.int(1, 3);
    for (let i = 0; i < times; i++) {
      ctx.world.stack.smtp.script({ responseCode: 451, message: '4.3.0 Temporary failure, try again later' });
    }
    ctx.story.add('inject', `SMTP answers the next ${times} message(s) 451`);
  },
  'smtp-drop': async (ctx, rng) => {
    const times = rng.int(1, 3);
    for (let i = 0; i < times; i++) {
      if (i > 0) await sleep(rng.int(100, 600));
      const at = Date.now();
      const dropped = ctx.world.smtpProxy.drop();
      ctx.hazards.push({ from: at, to: at, what: `SMTP connections dropped at ${ctx.story.elapsed()} ms` });
      ctx.story.add('inject', `dropped ${dropped} open SMTP connection(s)`);
    }
  },
  'hook-500': async (ctx, rng) => {
    const times = rng.int(1, 2);
    for (let i = 0; i < times; i++) ctx.world.receiver.script({ status: 500 });
    ctx.story.add('inject', `webhook receiver answers the next ${times} POST(s) 500`);
  },
} satisfies Record<FaultName, FaultRun>;

/** Runs one planned fault (its randomness comes from its own seed, so a plan replays the same way). */
export async function runFault(fault: PlannedFault, ctx: FaultContext): Promise<void> {
  await RUNS[fault.name](ctx, new Random(fault.seed));
}

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
  if (moment === 'any') return;
  const queues =
    moment === 'poll'
      ? [world.queues.poll]
      : moment === 'sweep'
        ? [world.queues.sweep]
        : moment === 'digest'
          ? [world.queues.digest, world.queues.deliver('morning')]
          : CHANNELS.map((c) => world.queues.deliver(c));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const counts = await Promise.all(queues.map((q) => q.getActiveCount()));
    if (counts.some((n) => n > 0)) return;
    await sleep(15);
  }
}

async function killAndRestart(ctx: FaultContext, rng: Random, member: Member): Promise<void> {
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
async function killRedisClients(ctx: FaultContext, rng: Random): Promise<void> {
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
async function pauseRedis(ctx: FaultContext): Promise<void> {
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

async function badBody(ctx: FaultContext, rng: Random, body: 'malformed' | 'schema'): Promise<void> {
  const times = rng.int(1, 3);
  const operation = rng.chance(0.75) ? 'positions' : 'issuers';
  ctx.world.stack.sandbox.faults.inject({ body, times, operation });
  const what = body === 'malformed' ? 'truncated JSON' : 'schema-violating JSON';
  ctx.story.add('inject', `upstream answers ${what} (200) to the next ${times} ${operation} request(s)`);
}

/**
 * A short 401 episode: one refused request stops polling in every process (and the hourly probe waits
 * an hour), so the operator fixes nothing and runs `shortwatch resume`, as the notice tells them to.
 */
async function unauthorizedEpisode(ctx: FaultContext, rng: Random): Promise<void> {
  const { sandbox, configPath } = ctx.world.stack;
  const injectedAt = Date.now();
  sandbox.faults.inject({ status: 401 });
  ctx.story.add('inject', 'upstream answers 401 to the next request (a short key problem)');
  const revoked = await waitFor(
    'access revoked',
    async () => (await ctx.world.access.get()).state !== 'ok',
    10_000,
  )
    .then(() => true)
    .catch(() => false);
  if (revoked) {
    ctx.story.add('saw', 'access marked revoked in Redis: polling stopped in every process');
  } else {
    // The process that got the 401 may have died before it could record it; then the key simply worked again.
    const answered = sandbox.stats.requests.find((r) => r.status === 401 && r.at >= injectedAt);
    const killed = answered && ctx.hazards.find((h) => h.what.startsWith('SIGKILL') && h.from >= answered.at);
    if (answered && killed) {
      ctx.story.add(
        'saw',
        `the 401 was answered, then ${killed.what} before it was recorded; nothing to resume`,
      );
      return;
    }
    const message = `a 401 from upstream (${answered ? 'answered' : 'never requested'}) did not mark access revoked within 10 s`;
    ctx.problems.push(message);
    ctx.story.add('fail', message);
    return;
  }
  await sleep(rng.int(300, 2_000));
  const resumed = await runShortwatch(['resume', '-c', configPath]);
  ctx.story.add(
    'inject',
    `operator ran \`shortwatch resume\` (exit ${resumed.code}): ${resumed.stdout.trim()}`,
  );
}
