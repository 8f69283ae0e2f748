import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BudgetOptions, RateBudget } from '../../src/budget/rate-budget.js';
import { nextWindowStart, windowStart } from '../../src/budget/windows.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { intoWindow } from './redis-time.js';

// The budget reads Redis' clock (TIME) in its scripts; the caller's clock is a fixed instant far from
// Redis' (2025), so every instant the budget returns must be Redis' instant moved onto it.
const MINUTE = 60_000;
const DAY = 86_400_000;
const CALLER_NOW = Date.UTC(2025, 2, 14, 12, 30, 15, 250);
const now = () => CALLER_NOW;

let env: TestRedis;

function budget(overrides: Partial<BudgetOptions> = {}, callerNow: () => number = now): RateBudget {
  return new RateBudget(
    env.redis,
    {
      ledger: env.prefix,
      perMinute: 100,
      perDay: 1000,
      reserve: 0,
      minuteMs: MINUTE,
      dayMs: DAY,
      ...overrides,
    },
    callerNow,
  );
}

async function takeMany(target: RateBudget, count: number, interactive = false) {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await target.take({ interactive }));
  return decisions;
}

beforeEach(async () => {
  env = await createTestRedis('budget');
});

afterEach(async () => {
  await env.cleanup();
});

describe('RateBudget windows, by Redis time', () => {
  it('grants up to the minute cap, counting down both windows, then refuses until the minute window ends', async () => {
    const minuteMs = 600;
    const b = budget({ perMinute: 3, perDay: 10, minuteMs });
    await intoWindow(env.redis, minuteMs, 0, 200);
    const granted = await takeMany(b, 3);
    expect(granted.map((d) => d.granted && [d.minuteLeft, d.dayLeft, d.probeClaim])).toEqual([
      [2, 9, null],
      [1, 8, null],
      [0, 7, null],
    ]);
    const refused = await b.take();
    if (refused.granted) throw new Error('expected a refusal');
    expect(refused.reason).toBe('minute');
    expect(refused.redisAt + refused.retryInMs).toBe(nextWindowStart(refused.redisAt, minuteMs));
    // The caller's clock is years from Redis': the same wait, on its own clock.
    expect(refused.retryAt).toBe(CALLER_NOW + refused.retryInMs);
    await sleep(refused.retryInMs);
    expect(await b.take()).toMatchObject({ granted: true, minuteLeft: 2, dayLeft: 6 });
  });

  it('refuses when the day cap is reached until the day window ends, whatever the minute window says', async () => {
    const dayMs = 1_200;
    const b = budget({ perMinute: 100, perDay: 4, minuteMs: 100, dayMs });
    await intoWindow(env.redis, dayMs, 0, 400);
    await takeMany(b, 4);
    // A time-window property: past the 100 ms minute window, still inside the day's, so only the day
    // cap can refuse now.
    await sleep(150);
    const refused = await b.take();
    expect(refused).toMatchObject({ granted: false, reason: 'day' });
    if (refused.granted) return;
    expect((refused.redisAt + refused.retryInMs) % dayMs).toBe(0);
    expect(await b.take({ interactive: true })).toMatchObject({ granted: false, reason: 'day' });
    await sleep(refused.retryInMs);
    expect(await b.take()).toMatchObject({ granted: true, minuteLeft: 99, dayLeft: 3 });
  });

  it('does not count refused takes; usage reports the windows on Redis time', async () => {
    const b = budget({ perMinute: 2, perDay: 10 });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    await takeMany(b, 5);
    const usage = await b.usage();
    expect(usage.minute).toMatchObject({ used: 2, cap: 2, left: 0 });
    expect(usage.day).toMatchObject({ used: 2, cap: 10, left: 8 });
    expect(usage.minute.resetAt).toBe(nextWindowStart(usage.redisAt, MINUTE));
    expect(usage.day.resetAt).toBe(nextWindowStart(usage.redisAt, DAY));
  });

  it('keeps one hash per window kind, holding the window start by Redis time, expiring by itself', async () => {
    const b = budget();
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    const decision = await b.take();
    const minute = await env.redis.hgetall(`${env.prefix}:budget:minute`);
    const day = await env.redis.hgetall(`${env.prefix}:budget:day`);
    expect(minute).toEqual({ start: String(windowStart(decision.redisAt, MINUTE)), used: '1' });
    expect(day).toEqual({ start: String(windowStart(decision.redisAt, DAY)), used: '1' });
    const minuteTtl = await env.redis.pttl(`${env.prefix}:budget:minute`);
    expect(minuteTtl).toBeGreaterThan(MINUTE);
    expect(minuteTtl).toBeLessThanOrEqual(2 * MINUTE);
    const dayTtl = await env.redis.pttl(`${env.prefix}:budget:day`);
    expect(dayTtl).toBeGreaterThan(DAY);
    expect(dayTtl).toBeLessThanOrEqual(2 * DAY);
  });

  it('starts a window Redis has left at 0, and keeps counting into a stored window ahead of Redis (a clock stepped back)', async () => {
    const b = budget({ perMinute: 3 });
    const at = await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    const key = `${env.prefix}:budget:minute`;
    await env.redis.hset(key, 'start', windowStart(at, MINUTE) - MINUTE, 'used', 3);
    expect(await b.take()).toMatchObject({ granted: true, minuteLeft: 2 });

    const ahead = windowStart(at, MINUTE) + MINUTE;
    await env.redis.hset(key, 'start', ahead, 'used', 3);
    const refused = await b.take();
    expect(refused).toMatchObject({ granted: false, reason: 'minute' });
    if (!refused.granted) expect(refused.redisAt + refused.retryInMs).toBe(ahead + MINUTE);
  });

  it('holds a take asked to wait near a window end, until that end', async () => {
    const minuteMs = 2_000;
    const b = budget({ minuteMs });
    // The margin of a 2 s window is 500 ms: inside it, and outside it.
    await intoWindow(env.redis, minuteMs, 1_600, 1_900);
    const held = await b.take({ holdNearWindowEnd: true });
    expect(held).toMatchObject({ granted: false, reason: 'window-end' });
    if (!held.granted) expect(held.redisAt + held.retryInMs).toBe(nextWindowStart(held.redisAt, minuteMs));
    expect(await b.take()).toMatchObject({ granted: true });
    await intoWindow(env.redis, minuteMs, 100, 1_400);
    expect(await b.take({ holdNearWindowEnd: true })).toMatchObject({ granted: true });
  });

  it('grants two callers whose clocks are 61 s apart one shared window, each waiting on its own clock', async () => {
    const minuteMs = 1_000;
    const options = { ledger: env.prefix, perMinute: 5, perDay: 1000, reserve: 0, minuteMs, dayMs: DAY };
    const callers = [CALLER_NOW, CALLER_NOW + 61_000];
    const [behind, ahead] = callers.map(
      (at, i) => new RateBudget(i === 0 ? env.redis : env.connect(), options, () => at),
    );
    await intoWindow(env.redis, minuteMs, 0, 300);
    const decisions = await Promise.all([takeMany(behind!, 4), takeMany(ahead!, 4)]);
    expect(decisions.flat().filter((d) => d.granted)).toHaveLength(5);
    decisions.forEach((mine, i) => {
      for (const d of mine) {
        if (d.granted) continue;
        expect(d.reason).toBe('minute');
        expect(d.retryAt - (callers[i] ?? 0)).toBe(d.retryInMs);
      }
    });
  });
});

describe('RateBudget reserve', () => {
  it('keeps the last tokens of the day for interactive takes only', async () => {
    const b = budget({ perDay: 10, reserve: 3 });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    const polling = await takeMany(b, 7);
    expect(polling.every((d) => d.granted)).toBe(true);
    const refused = await b.take();
    expect(refused).toMatchObject({ granted: false, reason: 'reserve' });
    if (!refused.granted)
      expect(refused.redisAt + refused.retryInMs).toBe(nextWindowStart(refused.redisAt, DAY));
    const interactive = await takeMany(b, 3, true);
    expect(interactive.map((d) => d.granted && d.dayLeft)).toEqual([2, 1, 0]);
    expect(await b.take({ interactive: true })).toMatchObject({ granted: false, reason: 'day' });
  });

  it('lets interactive takes spend any token, not only the reserve', async () => {
    const b = budget({ perDay: 4, reserve: 2 });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    expect((await takeMany(b, 4, true)).every((d) => d.granted)).toBe(true);
    expect(await b.take()).toMatchObject({ granted: false, reason: 'day' });
  });
});

describe('RateBudget timed block', () => {
  it('refuses every take until the block ends, interactive ones too, then lets it lapse', async () => {
    const b = budget();
    const block = await b.blockFor(400, 'rate-limited: upstream 429');
    expect(block).toMatchObject({ changed: true, until: block.redisAt + 400, probing: false });
    const refused = await b.take();
    expect(refused).toMatchObject({ granted: false, reason: 'blocked' });
    expect(await b.take({ interactive: true })).toMatchObject({ granted: false, reason: 'blocked' });
    const usage = await b.usage();
    expect(usage).toMatchObject({ blockedReason: 'rate-limited: upstream 429', probing: null });
    if (refused.granted || usage.blockedUntil === null) throw new Error('expected a block');
    // The same instant on Redis' clock, whether read from the refusal or from usage.
    expect(usage.blockedUntil).toBe(refused.redisAt + refused.retryInMs);
    await sleep(refused.retryInMs);
    expect(await b.take()).toMatchObject({ granted: true });
    expect(await b.usage()).toMatchObject({ blockedUntil: null, blockedReason: null });
  });

  it('never shortens a block, and lengthens it when a later one comes', async () => {
    const b = budget();
    expect(await b.blockFor(60_000, 'day window')).toMatchObject({ changed: true });
    expect(await b.blockFor(10_000, 'shorter')).toMatchObject({ changed: false });
    expect((await b.usage()).blockedReason).toBe('day window');
    const longer = await b.blockFor(90_000, 'longer');
    expect(longer).toMatchObject({ changed: true, until: longer.redisAt + 90_000 });
    expect((await b.usage()).blockedReason).toBe('longer');
  });

  it('ignores a block already over, and lets the key expire when the block ends', async () => {
    const b = budget();
    expect(await b.blockFor(0, 'past')).toMatchObject({ changed: false });
    expect(await env.redis.exists(`${env.prefix}:budget:blocked`)).toBe(0);
    await b.blockFor(30_000, 'now');
    const ttl = await env.redis.pttl(`${env.prefix}:budget:blocked`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('blocks to the end of the minute window by Redis time', async () => {
    const b = budget();
    const block = await b.blockUntilWindowEnd('minute', 'rate-limited-minute: 429');
    const usage = await b.usage();
    expect(block.changed).toBe(true);
    const until = block.until;
    expect(until).toBe(nextWindowStart(block.redisAt, MINUTE));
    expect(usage.blockedUntil ?? 0).toBe(until);
  });
});

describe('RateBudget atomicity', () => {
  it('grants exactly the cap to 200 concurrent takes from 4 connections', async () => {
    const options: BudgetOptions = {
      ledger: env.prefix,
      perMinute: 50,
      perDay: 1000,
      reserve: 0,
      minuteMs: MINUTE,
      dayMs: DAY,
    };
    const budgets = Array.from({ length: 4 }, () => new RateBudget(env.connect(), options, now));
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 5_000);
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => budgets[i % 4]!.take()));
    expect(decisions.filter((d) => d.granted)).toHaveLength(50);
    expect(decisions.filter((d) => !d.granted && d.reason === 'minute')).toHaveLength(150);
    const lefts = decisions.flatMap((d) => (d.granted ? [d.minuteLeft] : [])).sort((a, b) => a - b);
    expect(lefts).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect((await budgets[0]!.usage()).minute.used).toBe(50);
  });
});

describe('RateBudget ledger', () => {
  it('counts each call by purpose beside its windows, and a new credential (a reload) counts in its own ledger', async () => {
    const first = `${env.prefix}:first`;
    const second = `${env.prefix}:second`;
    const b = budget({ ledger: first });
    await intoWindow(env.redis, MINUTE, 0, MINUTE - 2_000);
    await b.take();
    await b.countCall('poll');
    const dayStart = windowStart((await b.usage()).redisAt, DAY);
    expect(await b.calls(dayStart)).toMatchObject({ poll: 1, 'issuer-list': 0 });

    b.configure({ ledger: second, perMinute: 100, perDay: 1000, reserve: 0, minuteMs: MINUTE, dayMs: DAY });
    await b.take();
    await b.countCall('issuer-list');
    expect((await b.usage()).day.used).toBe(1);
    expect(await b.calls(dayStart)).toMatchObject({ poll: 0, 'issuer-list': 1 });
    // The first credential's ledger kept its own count: another budget on it still sees it.
    const before = budget({ ledger: first });
    expect((await before.usage()).day.used).toBe(1);
    expect(await before.calls(dayStart)).toMatchObject({ poll: 1, 'issuer-list': 0 });
  });
});

describe('RateBudget.adoptDeploymentBudget: the upgrade from a budget kept under the prefix', () => {
  it("carries today's count and a 429 block into the credential's ledger, then deletes the old keys", async () => {
    const b = budget();
    await b.take();
    const day = await env.redis.hgetall(`${env.prefix}:budget:day`);
    // The keys as the version before the ledger wrote them, under the deployment's own root.
    const deployment = `${env.prefix}-deployment`;
    const until = Date.now() + 3_600_000;
    await env.redis.hset(`${deployment}:budget:day`, 'start', day.start ?? '0', 'used', 40);
    await env.redis.hset(
      `${deployment}:budget:blocked`,
      'until',
      until,
      'reason',
      'rate-limited-day',
      'mode',
      'timed',
    );
    await env.redis.hset(`${deployment}:requests`, 'window', day.start ?? '0', 'poll', 40);
    await b.adoptDeploymentBudget(deployment);
    // Before: a new ledger started at 1 used and no block, so up to another whole day could be spent.
    const usage = await b.usage();
    expect(usage.day.used).toBe(40);
    expect(usage.blockedUntil).toBe(until);
    expect(
      await env.redis.exists(
        `${deployment}:budget:day`,
        `${deployment}:budget:blocked`,
        `${deployment}:requests`,
      ),
    ).toBe(0);
    expect(await env.redis.pttl(`${env.prefix}:budget:blocked`)).toBeGreaterThan(0);
    // A second start finds nothing to carry and keeps the ledger's count and block.
    await b.adoptDeploymentBudget(deployment);
    expect((await b.usage()).day.used).toBe(40);
    expect((await b.usage()).blockedUntil).toBe(until);
  });
});
