import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetModel } from '../../bench/sim/budget-model.js';
import { RateBudget } from '../../src/budget/index.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const OPTIONS = { perMinute: 3, perDay: 5, reserve: 1, minuteMs: 1_000, dayMs: 10_000 };

/** Takes at these offsets (ms from a day boundary), interactive or not. */
const CASES: Array<[string, Array<[number, boolean]>]> = [
  [
    'minute cap, then the next minute window',
    [
      [0, false],
      [10, false],
      [20, false],
      [30, false],
      [1_000, false],
    ],
  ],
  [
    'reserve kept from polling, spent by an interactive take',
    [
      [0, false],
      [1, false],
      [1_001, false],
      [1_002, false],
      [2_000, false],
      [2_001, true],
      [2_002, true],
    ],
  ],
  [
    'day cap, then the next day window',
    [
      [0, true],
      [1, true],
      [2, true],
      [1_000, true],
      [1_001, true],
      [1_002, true],
      [10_000, false],
    ],
  ],
  [
    'windows aligned on multiples of their length',
    [
      [999, false],
      [999, false],
      [999, false],
      [1_000, false],
      [9_999, false],
      [10_000, false],
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
      let now = 0;
      const base = 1_700_000_000_000 - (1_700_000_000_000 % OPTIONS.dayMs);
      const real = new RateBudget(
        redis.redis,
        { prefix: `${redis.prefix}:case${index}`, ...OPTIONS },
        () => now,
      );
      const model = new BudgetModel(OPTIONS);
      for (const [offset, interactive] of takes) {
        now = base + offset;
        const expected = await real.take({ interactive });
        const actual = model.take(now, interactive);
        expect(actual.granted).toBe(expected.granted);
        if (!actual.granted && !expected.granted) {
          expect([actual.reason, actual.retryAt]).toEqual([expected.reason, expected.retryAt]);
        }
        // enrichClosed reads usage().day.left; the simulation's guard reads dayLeft.
        expect(model.dayLeft(now)).toBe((await real.usage()).day.left);
      }
    },
  );

  it('counts granted tokens per day window', () => {
    const model = new BudgetModel(OPTIONS);
    for (const at of [0, 1, 1_000, 10_000]) model.take(at);
    expect([...model.perDay.entries()]).toEqual([
      [0, 3],
      [10_000, 1],
    ]);
  });
});
