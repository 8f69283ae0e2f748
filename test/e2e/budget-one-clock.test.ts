import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessState, accessFingerprint } from '../../src/budget/access-state.js';
import { type BudgetExhaustedError, isBudgetExhaustedError } from '../../src/budget/budget-errors.js';
import { createBudgetGuard } from '../../src/budget/guard.js';
import { RateBudget } from '../../src/budget/rate-budget.js';
import { nextWindowStart } from '../../src/budget/windows.js';
import { formatStatus } from '../../src/cli/commands/state.js';
import { collectStatus } from '../../src/ops/status.js';
import { holderKey } from '../../src/positions/index.js';
import type { RequestInfo } from '../../src/upstream/request-info.js';
import { intoWindow } from '../budget/redis-time.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { awayFromWindowEnd, spawnDaemon, startStack, usePerTest, waitFor } from './harness.js';

// Issue 11: each host's clock decided the budget's windows, so two hosts 61 s apart were granted twice the
// minute cap in one real minute; and a 429 without Retry-After blocked to our own midnight.

const DAY = 86_400_000;
const REQUEST: RequestInfo = { operation: 'issuers', method: 'GET', path: '/issuers', attempt: 1 };

describe('one clock: two hosts 61 s apart share one minute window', () => {
  let env: TestRedis | undefined;

  afterEach(async () => {
    await env?.cleanup();
    env = undefined;
  });

  /** One "process": its own Redis connection, budget, access state and guard, on a clock `skewMs` off. */
  function host(redis: TestRedis, skewMs: number, minuteMs: number, perMinute: number) {
    const now = () => Date.now() + skewMs;
    const connection = redis.connect();
    const budget = new RateBudget(
      connection,
      { ledger: redis.prefix, perMinute, perDay: 1_000_000, reserve: 0, minuteMs, dayMs: DAY },
      now,
    );
    const guard = createBudgetGuard({
      budget,
      access: new AccessState(connection, redis.prefix, now),
      fingerprint: accessFingerprint('https://api.example.com', 'key'),
      interactive: false,
      rateLimitProbeMs: 3_600_000,
    });
    /** Takes tokens as fast as it can until refused; the count and the refusal. */
    const drain = async (): Promise<{ granted: number; refusal: BudgetExhaustedError; at: number }> => {
      for (let granted = 0; ; granted++) {
        try {
          await guard.beforeRequest(REQUEST);
        } catch (error) {
          if (!isBudgetExhaustedError(error)) throw error;
          return { granted, refusal: error, at: now() };
        }
      }
    };
    return { drain };
  }

  it('granted together never more than perMinute in a window, and each waits the right time on its own clock', async () => {
    env = await createTestRedis('one-clock');
    const minuteMs = 1_000;
    const perMinute = 20;
    const hosts = [host(env, 0, minuteMs, perMinute), host(env, 61_000, minuteMs, perMinute)];
    for (let round = 0; round < 3; round++) {
      const start = await intoWindow(env.redis, minuteMs, 0, 300);
      const [a, b] = await Promise.all(hosts.map((h) => h.drain()));
      if (!a || !b) throw new Error('two hosts');
      expect(a.granted + b.granted).toBe(perMinute);
      for (const { refusal, at } of [a, b]) {
        expect(refusal.reason).toBe('minute');
        // The end of the shared window, however far this host's clock is from Redis': under a window away.
        expect(refusal.retryAt - at).toBeGreaterThan(0);
        expect(refusal.retryAt - at).toBeLessThanOrEqual(nextWindowStart(start, minuteMs) - start);
      }
      // Waiting as told, on the skewed clock, lands in the next window.
      await sleep(b.refusal.retryAt - b.at);
    }
  });
});

describe('a 429 for the day window without Retry-After', () => {
  const current = usePerTest();

  it('blocks not to our midnight but until a probe, one probe an interval from any process, and a success resumes', {
    timeout: 60_000,
  }, async () => {
    const probeInterval = 2_000;
    const stack = await startStack({
      issuers: 4,
      seed: 41,
      channels: ['slack'],
      sandbox: { retryAfterHeader: false },
      config: {
        poll: { gateInterval: '300ms' },
        budget: { perMinute: 6_000, perDay: 5_000_000, reserve: 10, probeInterval: `${probeInterval}ms` },
      },
    });
    current.stack = stack;
    const { sandbox } = stack;
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    current.daemons.push(await spawnDaemon(stack, 'worker'));
    const opened = app;
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots',
      async () => (await opened.ctx.snapshots.getMany(ids)).size === ids.length,
    );

    // Far from our own midnight: a block to it would last long past this test.
    await awayFromWindowEnd(DAY, 60_000);
    const from = sandbox.stats.requests.length;
    // The limit stays on until the first probe has been refused (cleared below): a count of 429s would
    // be spent by whichever requests come first, and on a busy machine one sent just before the block
    // was recorded (in flight) takes one, 85 ms after the first.
    sandbox.faults.rateLimit('day', { times: Number.POSITIVE_INFINITY });
    const changes = sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    const found = await waitFor('the first 429', () =>
      sandbox.stats.requests.slice(from).find((r) => r.status === 429),
    );
    const limited = found ?? expect.fail('no 429 recorded');

    // While probing, status says so and the next probe is one interval away, not at midnight.
    await waitFor('probing', async () => (await opened.ctx.budget.usage()).probing !== null);
    const report = await collectStatus(opened);
    expect(report.budget?.probing).toMatchObject({ window: 'day', every: '2s' });
    expect(report.budget?.blockedReason).toMatch(/^rate-limited-day-probing: upstream answered 429 to GET /);
    const nextProbe = Date.parse(report.upstream?.blockedUntil ?? '');
    expect(nextProbe).toBeGreaterThanOrEqual(limited.at + probeInterval);
    expect(nextProbe).toBeLessThan(nextWindowStart(limited.at, DAY));
    // The process that met the 429 raises the notice just after it records the block: wait for it.
    await waitFor('the rate-limit notice', async () =>
      (await opened.ctx.notices.list()).some((n) => n.key === 'upstream-rate-limited'),
    );
    expect(formatStatus(report)).toContain(
      `Upstream access: rate-limited, one probe request every 2s (next ${report.upstream?.blockedUntil}): rate-limited-day-probing: `,
    );

    // The probes, as the ledger grants them (Redis' clock, whichever process asks): each grant writes
    // `probeAt` on the block. Requests sent before the block was recorded may still arrive after the 429:
    // the probes are told apart by their grant, not by when the sandbox saw a request.
    const blockKey = stack.ledger.budgetBlocked;
    const probes: number[] = [];
    const sampleProbe = async () => {
      const at = Number(await stack.redis.redis.hget(blockKey, 'probeAt'));
      if (at > 0 && !probes.includes(at)) probes.push(at);
    };
    await waitFor('a probe refused', async () => {
      await sampleProbe();
      const [first] = probes;
      return first !== undefined && sandbox.stats.requests.some((r) => r.at >= first && r.status === 429);
    });
    sandbox.faults.clear();
    await waitFor(
      'probing to end',
      async () => {
        await sampleProbe();
        return (await opened.ctx.budget.usage()).probing === null;
      },
      20_000,
    );
    const since = Date.parse(report.budget?.probing?.since ?? '');
    const [firstProbe] = probes;
    if (firstProbe === undefined) throw new Error('no probe granted');
    // The first probe an interval after probing began, each next one an interval after the last.
    expect(firstProbe - since).toBeGreaterThanOrEqual(probeInterval);
    for (const [i, at] of probes.entries()) {
      if (i > 0) expect(at - (probes[i - 1] ?? 0)).toBeGreaterThanOrEqual(probeInterval);
    }
    const after = sandbox.stats.requests.slice(from).filter((r) => r.at >= limited.at);
    const resumed = after.find((r) => r.status === 200);
    if (!resumed) throw new Error('no request succeeded after the 429');
    // Requests flow again only from the probe that got an answer: nothing succeeded before the last probe
    // seen was granted, and from the first probe's grant to that answer only probes were sent, all
    // refused, at most one an interval (the successful probe's grant, deleted with the block as its
    // answer comes, is seldom seen by the sampling above: the bound counts by time instead).
    expect(resumed.at).toBeGreaterThanOrEqual(probes.at(-1) ?? Number.NaN);
    const betweenProbes = after.filter((r) => r.at >= firstProbe && r.at < resumed.at);
    expect(betweenProbes.every((r) => r.status === 429)).toBe(true);
    expect(betweenProbes.length).toBeLessThanOrEqual(Math.floor((resumed.at - firstProbe) / probeInterval));

    // Requests flow again: the changes published during the block are found, and the notice clears.
    const expected = changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort();
    await waitFor('the changes', async () => {
      const events = await opened.ctx.eventLog.recent({ limit: 1_000 });
      const keys = new Set(events.map((e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`));
      return expected.every((key) => keys.has(key));
    });
    await waitFor('the notice to clear', async () =>
      (await opened.ctx.notices.list()).every((n) => n.key !== 'upstream-rate-limited'),
    );
  });
});
