import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BudgetOptions, RateBudget } from '../../src/budget/rate-budget.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

let env: TestRedis;
let clock: number;
const now = () => clock;

function budget(overrides: Partial<BudgetOptions> = {}): RateBudget {
  return new RateBudget(
    env.redis,
    {
      prefix: env.prefix,
      perMinute: 100,
      perDay: 1000,
      reserve: 0,
      minuteMs: MINUTE,
      dayMs: DAY,
      ...overrides,
    },
    now,
  );
}

async function takeMany(target: RateBudget, count: number, interactive = false) {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await target.take({ interactive }));
  return decisions;
}

beforeEach(async () => {
  env = await createTestRedis('budget');
  clock = Date.UTC(2025, 2, 14, 12, 30, 15, 250);
});

afterEach(async () => {
  await env.cleanup();
});

describe('RateBudget windows', () => {
  it('grants up to the minute cap, counting down both windows, then refuses until the next minute', async () => {
    const b = budget({ perMinute: 3, perDay: 10 });
    expect(await takeMany(b, 3)).toEqual([
      { granted: true, minuteLeft: 2, dayLeft: 9 },
      { granted: true, minuteLeft: 1, dayLeft: 8 },
      { granted: true, minuteLeft: 0, dayLeft: 7 },
    ]);
    expect(await b.take()).toEqual({
      granted: false,
      reason: 'minute',
      retryAt: Date.UTC(2025, 2, 14, 12, 31),
    });
    clock = Date.UTC(2025, 2, 14, 12, 31);
    expect(await b.take()).toEqual({ granted: true, minuteLeft: 2, dayLeft: 6 });
  });

  it('refuses when the day cap is reached until the next UTC day, whatever the minute window says', async () => {
    const b = budget({ perMinute: 100, perDay: 4 });
    await takeMany(b, 4);
    clock += 5 * MINUTE;
    expect(await b.take()).toEqual({ granted: false, reason: 'day', retryAt: Date.UTC(2025, 2, 15) });
    expect(await b.take({ interactive: true })).toMatchObject({ granted: false, reason: 'day' });
    clock = Date.UTC(2025, 2, 15);
    expect(await b.take()).toEqual({ granted: true, minuteLeft: 99, dayLeft: 3 });
  });

  it('does not count refused takes', async () => {
    const b = budget({ perMinute: 2, perDay: 10 });
    await takeMany(b, 5);
    const usage = await b.usage();
    expect(usage.minute).toEqual({ used: 2, cap: 2, left: 0, resetAt: Date.UTC(2025, 2, 14, 12, 31) });
    expect(usage.day).toEqual({ used: 2, cap: 10, left: 8, resetAt: Date.UTC(2025, 2, 15) });
  });

  it.each<[string, Partial<BudgetOptions>, number, number]>([
    [
      'the last millisecond of a UTC day and the first of the next',
      { perMinute: 100, perDay: 1 },
      Date.UTC(2025, 2, 14, 23, 59, 59, 999),
      Date.UTC(2025, 2, 15),
    ],
    [
      'the last millisecond of a UTC minute and the first of the next',
      { perMinute: 1, perDay: 1000 },
      Date.UTC(2025, 2, 14, 8, 0, 59, 999),
      Date.UTC(2025, 2, 14, 8, 1),
    ],
  ])('aligns windows to UTC: %s are different windows', async (_name, caps, before, after) => {
    const b = budget(caps);
    clock = before;
    expect(await b.take()).toMatchObject({ granted: true });
    expect(await b.take()).toMatchObject({ granted: false, retryAt: after });
    clock = after;
    expect(await b.take()).toMatchObject({ granted: true });
  });

  it('names its keys by the UTC window start and lets them expire by themselves', async () => {
    const b = budget();
    await b.take();
    const minuteKey = `${env.prefix}:budget:minute:${Date.UTC(2025, 2, 14, 12, 30)}`;
    const dayKey = `${env.prefix}:budget:day:${Date.UTC(2025, 2, 14)}`;
    expect(await env.redis.get(minuteKey)).toBe('1');
    expect(await env.redis.get(dayKey)).toBe('1');
    const minuteTtl = await env.redis.pttl(minuteKey);
    const dayTtl = await env.redis.pttl(dayKey);
    expect(minuteTtl).toBeGreaterThan(0);
    expect(minuteTtl).toBeLessThanOrEqual(2 * MINUTE);
    expect(dayTtl).toBeGreaterThan(11 * 3_600_000);
    expect(dayTtl).toBeLessThanOrEqual(12 * 3_600_000);
  });
});

describe('RateBudget reserve', () => {
  it('keeps the last tokens of the day for interactive takes only', async () => {
    const b = budget({ perDay: 10, reserve: 3 });
    const polling = await takeMany(b, 7);
    expect(polling.every((d) => d.granted)).toBe(true);
    expect(await b.take()).toEqual({ granted: false, reason: 'reserve', retryAt: Date.UTC(2025, 2, 15) });
    const interactive = await takeMany(b, 3, true);
    expect(interactive.map((d) => d.granted && d.dayLeft)).toEqual([2, 1, 0]);
    expect(await b.take({ interactive: true })).toMatchObject({ granted: false, reason: 'day' });
  });

  it('lets interactive takes spend any token, not only the reserve', async () => {
    const b = budget({ perDay: 4, reserve: 2 });
    expect((await takeMany(b, 4, true)).every((d) => d.granted)).toBe(true);
    expect(await b.take()).toMatchObject({ granted: false, reason: 'day' });
  });
});

describe('RateBudget block', () => {
  it('refuses every take until the block ends, interactive ones too', async () => {
    const b = budget();
    const until = clock + 45_000;
    await b.block(until, 'upstream 429');
    expect(await b.take()).toEqual({ granted: false, reason: 'blocked', retryAt: until });
    expect(await b.take({ interactive: true })).toEqual({
      granted: false,
      reason: 'blocked',
      retryAt: until,
    });
    expect(await b.usage()).toMatchObject({ blockedUntil: until, blockedReason: 'upstream 429' });
    clock = until;
    expect(await b.take()).toMatchObject({ granted: true });
    expect(await b.usage()).toMatchObject({ blockedUntil: null, blockedReason: null });
  });

  it('never shortens a block, and lengthens it when a later one comes', async () => {
    const b = budget();
    await b.block(clock + 60_000, 'day window');
    await b.block(clock + 10_000, 'shorter');
    expect(await b.usage()).toMatchObject({ blockedUntil: clock + 60_000, blockedReason: 'day window' });
    await b.block(clock + 90_000, 'longer');
    expect(await b.usage()).toMatchObject({ blockedUntil: clock + 90_000, blockedReason: 'longer' });
  });

  it('ignores a block already over, and lets the key expire when the block ends', async () => {
    const b = budget();
    await b.block(clock - 1, 'past');
    expect(await env.redis.exists(`${env.prefix}:budget:blocked`)).toBe(0);
    await b.block(clock + 30_000, 'now');
    const ttl = await env.redis.pttl(`${env.prefix}:budget:blocked`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });
});

describe('RateBudget atomicity', () => {
  it('grants exactly the cap to 200 concurrent takes from 4 connections', async () => {
    const options: BudgetOptions = {
      prefix: env.prefix,
      perMinute: 50,
      perDay: 1000,
      reserve: 0,
      minuteMs: MINUTE,
      dayMs: DAY,
    };
    const budgets = Array.from({ length: 4 }, () => new RateBudget(env.connect(), options, now));
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => budgets[i % 4]!.take()));
    expect(decisions.filter((d) => d.granted)).toHaveLength(50);
    expect(decisions.filter((d) => !d.granted && d.reason === 'minute')).toHaveLength(150);
    const lefts = decisions.flatMap((d) => (d.granted ? [d.minuteLeft] : [])).sort((a, b) => a - b);
    expect(lefts).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect((await budgets[0]!.usage()).minute.used).toBe(50);
  });
});
