import { setTimeout as sleep } from 'node:timers/promises';
import { Random } from '../../src/sandbox/prng.js';
import { runShortwatch, waitFor } from '../e2e/harness.js';
import type { FaultContext, FaultRun } from './fault-context.js';
import type { FaultName, PlannedFault } from './plan.js';
import { killAndRestart, killRedisClients, pauseRedis, senders } from './process-faults.js';
import { redisOutage } from './redis-outage.js';
import { UPSTREAM_TIMEOUT_MS } from './world.js';

export type { FaultContext, Hazard } from './fault-context.js';

const RUNS = {
  'kill-worker': async (ctx, rng) => {
    const moment = rng.pick(ctx.killMoments) ?? 'any';
    const workers = ctx.world.fleet.members.filter((m) => m.role === 'worker' && !m.busy);
    // A kill aimed at a delivery goes for a worker that sends, if one does.
    const sending = moment === 'deliver' ? await senders(ctx.world, workers) : [];
    const member = rng.pick(sending.length > 0 ? sending : workers);
    if (member) await killAndRestart(ctx, rng, member, moment);
  },
  'kill-daemon': async (ctx, rng) => {
    const moment = rng.pick(ctx.killMoments) ?? 'any';
    const member = ctx.world.fleet.members.find((m) => m.role === 'start');
    if (member) await killAndRestart(ctx, rng, member, moment);
  },
  'redis-client-kill': killRedisClients,
  'redis-pause': pauseRedis,
  'redis-outage': redisOutage,
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
    const up = (ids: readonly string[]) => ids.filter((id) => !ctx.issuersDown.has(id));
    const issuerId = rng.pick(up(ctx.changedIssuers)) ?? rng.pick(up(ctx.world.issuerIds)) ?? '';
    ctx.issuersDown.add(issuerId);
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

async function badBody(ctx: FaultContext, rng: Random, body: 'malformed' | 'schema'): Promise<void> {
  const times = rng.int(1, 3);
  const operation = rng.chance(0.75) ? 'positions' : 'issuers';
  ctx.world.stack.sandbox.faults.inject({ body, times, operation });
  const what = body === 'malformed' ? 'truncated JSON' : 'schema-violating JSON';
  ctx.story.add('inject', `upstream answers ${what} (200) to the next ${times} ${operation} request(s)`);
}

/** Runs `run` after every earlier fault of the same chain has ended (see {@link FaultContext.serial}). */
async function inSeries(ctx: FaultContext, chain: string, run: () => Promise<void>): Promise<void> {
  const mine = (ctx.serial.get(chain) ?? Promise.resolve()).then(run);
  ctx.serial.set(
    chain,
    mine.catch(() => undefined),
  );
  await mine;
}

/** 401 episodes of one step run one after another, each resuming after its own 401. */
function unauthorizedEpisode(ctx: FaultContext, rng: Random): Promise<void> {
  return inSeries(ctx, 'upstream-401', () => unauthorizedOnce(ctx, rng));
}

/**
 * A short 401 episode: one refused request stops polling in every process (and the hourly probe waits
 * an hour), so the operator fixes nothing and runs `shortwatch resume`, as the notice tells them to.
 */
async function unauthorizedOnce(ctx: FaultContext, rng: Random): Promise<void> {
  const { sandbox, configPath } = ctx.world.stack;
  const injectedAt = Date.now();
  sandbox.faults.inject({ status: 401 });
  ctx.story.add('inject', 'upstream answers 401 to the next request (a short key problem)');
  // Requests may be held up for a while first (a Redis pause, a 429 block): wait for the 401 itself.
  const answeredAt = () => sandbox.stats.requests.find((r) => r.status === 401 && r.at >= injectedAt)?.at;
  const answered = await waitFor('the 401 answered', answeredAt, 90_000).catch(() => undefined);
  if (answered === undefined) {
    ctx.problems.push('no request reached the upstream within 90 s of the 401 being set up');
    ctx.story.add('fail', 'no request reached the upstream within 90 s of the 401 being set up');
    return;
  }
  const isRevoked = async () => (await ctx.world.access.get()).state !== 'ok';
  const revoked = await waitFor('access revoked', isRevoked, 10_000).catch(() => false);
  if (!revoked) {
    // The process that got the 401 may have died before it could record it; then the key simply worked again.
    const killed = ctx.hazards.find((h) => h.what.startsWith('SIGKILL') && h.from >= answered);
    if (killed) {
      ctx.story.add(
        'saw',
        `the 401 was answered, then ${killed.what} before it was recorded; nothing to resume`,
      );
      return;
    }
    ctx.problems.push('a 401 from upstream did not mark access revoked within 10 s');
    ctx.story.add('fail', 'a 401 from upstream did not mark access revoked within 10 s');
    return;
  }
  ctx.story.add('saw', 'access marked revoked in Redis: polling stopped in every process');
  await sleep(rng.int(300, 2_000));
  // A Redis outage may cover the moment the operator runs it: `resume` then exits 1 ("Redis does not
  // answer") and the operator runs it again, as they would, until it answers (at most 10 tries, 1 s apart).
  for (let attempt = 1; attempt <= 10; attempt++) {
    const resumed = await runShortwatch(['resume', '-c', configPath]);
    const said = (resumed.code === 0 ? resumed.stdout : resumed.stderr).trim().split('\n').at(-1) ?? '';
    ctx.story.add('inject', `operator ran \`shortwatch resume\` (exit ${resumed.code}): ${said}`);
    if (resumed.code !== 1) return;
    await sleep(1_000);
  }
}
