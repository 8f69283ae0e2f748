import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetModel } from '../../bench/sim/budget-model.js';
import { RateBudget, windowStart } from '../../src/budget/index.js';
import { intoWindow, redisNow } from '../budget/redis-time.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

// The real budget reads Redis' clock, so the cases run in real time on short windows, and the model is
// given the Redis time each decision reports: the comparison is exact however late a take comes.
const OPTIONS = { perMinute: 3, perDay: 5, reserve: 1, minuteMs: 100, dayMs: 1_000 };

/** Takes at about these offsets (ms from a day boundary), interactive or not. */
const CASES: Array<[string, Array<[number, boolean]>]> = [
  [
    'minute cap, then the next minute window',
    [
      [0, false],
      [1, false],
      [2, false],
      [3, false],
      [100, false],
    ],
  ],
  [
    'reserve kept from polling, spent by an interactive take',
    [
      [0, false],
      [0, false],
      [100, false],
      [100, false],
      [200, false],
      [200, true],
      [200, true],
    ],
  ],
  [
    'day cap, then the next day window',
    [
      [0, true],
      [0, true],
      [0, true],
      [100, true],
      [100, true],
      [100, true],
      [1_000, false],
    ],
  ],
  [
    'windows aligned on multiples of their length',
    [
      [99, false],
      [99, false],
      [99, false],
      [100, false],
      [999, false],
      [1_000, false],
    ],
  ],
];

describe('BudgetModel mirrors the real RateBudget', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await createTestRedis('bench-budget');
  });
  afterAll(async () => {
    await redis.cleanup();
  });

  it.each(CASES.map(([name, takes], index) => [name, takes, index] as const))(
    '%s',
    async (_, takes, index) => {
      const real = new RateBudget(redis.redis, { ledger: `${redis.prefix}:case${index}`, ...OPTIONS });
      const model = new BudgetModel(OPTIONS);
      const base = windowStart(await intoWindow(redis.redis, OPTIONS.dayMs, 0, 30), OPTIONS.dayMs);
      for (const [offset, interactive] of takes) {
        await sleep(Math.max(0, base + offset - (await redisNow(redis.redis))));
        const expected = await real.take({ interactive });
        const actual = model.take(expected.redisAt, interactive);
        expect(actual.granted).toBe(expected.granted);
        if (!actual.granted && !expected.granted) {
          expect([actual.reason, actual.retryAt]).toEqual([
            expected.reason,
            expected.redisAt + expected.retryInMs,
          ]);
        }
        // enrichClosed reads usage().day.left; the simulation's guard reads dayLeft.
        const usage = await real.usage();
        expect(model.dayLeft(usage.redisAt)).toBe(usage.day.left);
      }
    },
  );

  it('counts granted tokens per day window', () => {
    const model = new BudgetModel(OPTIONS);
    for (const at of [0, 1, 100, 1_000]) model.take(at);
    expect([...model.perDay.entries()]).toEqual([
      [0, 3],
      [1_000, 1],
    ]);
  });
});
