import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BudgetDecision, type BudgetOptions, RateBudget } from '../../src/budget/rate-budget.js';
import { nextWindowStart } from '../../src/budget/windows.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { intoWindow, redisNow } from './redis-time.js';

// Probing after a 429 without Retry-After for the day window or none: nothing until the first probe,
// then one token per interval (the probe), and the probe's answer ends it. All by Redis' clock.
const DAY = 86_400_000;
const CALLER_NOW = Date.UTC(2025, 2, 14, 12, 30, 15, 250);
const EVERY = 400;

let env: TestRedis;

function budget(overrides: Partial<BudgetOptions> = {}, redis = env.redis): RateBudget {
  return new RateBudget(
    redis,
    {
      ledger: env.prefix,
      perMinute: 100,
      perDay: 1000,
      reserve: 0,
      minuteMs: 60_000,
      dayMs: DAY,
      ...overrides,
    },
    () => CALLER_NOW,
  );
}

/**
 * Asserts the block hash expires by itself a day window after `until`, by Redis' clock (PEXPIRETIME). The
 * script sets a relative expiry from its reading of TIME, which Redis counts from its own clock a moment
 * later: a second either way allows for a stalled Redis and still tells a day past `until` from `until`.
 */
async function expectKeptADayPast(until: number): Promise<void> {
  const expiresAt = Number(await env.redis.call('PEXPIRETIME', `${env.prefix}:budget:blocked`));
  expect(Math.abs(expiresAt - (until + DAY))).toBeLessThan(1_000);
}

function probeDay(b: RateBudget, overrides: { everyMs?: number; firstProbeBy?: 'minute' | 'day' } = {}) {
  return b.probeAfterRateLimit({
    window: 'day',
    everyMs: overrides.everyMs ?? EVERY,
    firstProbeBy: overrides.firstProbeBy ?? 'day',
    reason: 'rate-limited-day-probing: upstream answered 429 to GET /issuers (day window, no Retry-After)',
  });
}

/** Waits for the next probe and takes it. */
async function takeProbe(b: RateBudget): Promise<Extract<BudgetDecision, { granted: true }>> {
  const refused = await b.take();
  if (!refused.granted) await sleep(refused.retryInMs);
  const probe = await b.take();
  if (!probe.granted || probe.probeClaim === null)
    throw new Error(`expected the probe, got ${JSON.stringify(probe)}`);
  return probe;
}

beforeEach(async () => {
  env = await createTestRedis('probe');
  // Far from our own midnight, so that the interval, not the day's end, sets the first probe.
  await intoWindow(env.redis, DAY, 60_000, DAY - 60_000);
});

afterEach(async () => {
  await env.cleanup();
});

describe('RateBudget probing after a 429 without Retry-After', () => {
  it('refuses until the first probe one interval on, and reports it as probing', async () => {
    const b = budget();
    // An interval no loaded machine outlasts between the 429 and the reads below (EVERY did: the block
    // had ended by the time `usage` looked).
    const every = 30_000;
    const before = await redisNow(env.redis);
    const entered = await probeDay(b, { everyMs: every });
    expect(entered).toMatchObject({ changed: true, probing: true });
    const refused = await b.take({ interactive: true });
    expect(refused).toMatchObject({ granted: false, reason: 'blocked' });
    const usage = await b.usage();
    expect(usage.probing).toEqual({ window: 'day', everyMs: every, since: expect.any(Number) });
    expect(usage.blockedReason).toMatch(/^rate-limited-day-probing: /);
    const firstProbe = entered.until;
    expect(usage.blockedUntil ?? 0).toBe(firstProbe);
    expect(firstProbe).toBeGreaterThanOrEqual(before + every);
    expect(firstProbe).toBeLessThanOrEqual(usage.redisAt + every);
    // Probing lasts until a probe's answer ends it; no deployment owns the ledger, so the hash still
    // expires by itself, a day window after the next probe is due.
    await expectKeptADayPast(firstProbe);
  });

  it('never brings the next probe closer when more 429s come', async () => {
    const b = budget();
    const first = await probeDay(b, { everyMs: 60_000 });
    const again = await probeDay(b, { everyMs: 1_000 });
    expect(again.changed).toBe(false);
    expect(again.until).toBe(first.until);
  });

  it('grants exactly one probe token per interval across 4 connections, and its answer ends probing', async () => {
    const budgets = Array.from({ length: 4 }, (_, i) => budget({}, i === 0 ? env.redis : env.connect()));
    await probeDay(budgets[0]!);
    await sleep(EVERY);
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => budgets[i % 4]!.take()));
    const probes = decisions.flatMap((d) => (d.granted ? [d] : []));
    expect(probes).toHaveLength(1);
    const probe = probes[0]!;
    expect(probe.probeClaim).toBe(probe.redisAt);
    const refusals = decisions.flatMap((d) => (d.granted ? [] : [d]));
    expect(new Set(refusals.map((d) => d.reason))).toEqual(new Set(['blocked']));
    // The next probe is one interval after this one was claimed, and the hash is kept a day past it.
    for (const d of refusals) expect(d.redisAt + d.retryInMs).toBe(probe.redisAt + EVERY);
    await expectKeptADayPast(probe.redisAt + EVERY);

    expect(await budgets[1]!.endProbe(probe.redisAt - 1)).toBe(false);
    expect(await budgets[1]!.endProbe(probe.redisAt)).toBe(true);
    expect(await budgets[2]!.take()).toMatchObject({ granted: true, probeClaim: null });
    expect(await budgets[3]!.usage()).toMatchObject({
      blockedUntil: null,
      blockedReason: null,
      probing: null,
    });
  });

  it("the probe's own 429 sets the next probe a whole interval on, not at our window's end", async () => {
    const minuteMs = 1_000;
    const b = budget({ minuteMs });
    await probeDay(b, { firstProbeBy: 'minute' });
    const probe = await takeProbe(b);
    const again = await probeDay(b, { firstProbeBy: 'minute' });
    expect(again.changed).toBe(false);
    const next = again.until;
    expect(next).toBeGreaterThanOrEqual(probe.redisAt + EVERY);
    expect(next).toBeLessThanOrEqual(again.redisAt + EVERY);
  });

  it('takes the first probe at the end of our own window when that comes before the interval', async () => {
    const minuteMs = 1_000;
    const b = budget({ minuteMs });
    await intoWindow(env.redis, minuteMs, 0, 400);
    const entered = await probeDay(b, { everyMs: 60_000, firstProbeBy: 'minute' });
    expect(entered.until).toBe(nextWindowStart(entered.redisAt, minuteMs));
  });

  it('a 429 with Retry-After while probing pushes the next probe later and stays probing', async () => {
    const b = budget();
    await probeDay(b);
    const pushed = await b.blockFor(30_000, 'rate-limited: Retry-After 30s');
    expect(pushed).toMatchObject({ changed: true, probing: true, until: pushed.redisAt + 30_000 });
    const usage = await b.usage();
    expect(usage.probing).not.toBeNull();
    expect(usage.blockedReason).toMatch(/^rate-limited-day-probing: /);
    await expectKeptADayPast(pushed.until);
  });

  it('a 429 without Retry-After after a timed block turns it into probing, never shortening it', async () => {
    const b = budget();
    const timed = await b.blockFor(60_000, 'rate-limited: Retry-After 60s');
    const probing = await probeDay(b);
    expect(probing).toMatchObject({ changed: true, probing: true });
    expect(probing.until).toBe(timed.until);
    await expectKeptADayPast(timed.until);
  });

  it('endProbe does nothing while not probing', async () => {
    const b = budget();
    await b.blockFor(30_000, 'rate-limited: Retry-After 30s');
    expect(await b.endProbe(1)).toBe(false);
    expect((await b.usage()).blockedUntil).not.toBeNull();
  });
});
