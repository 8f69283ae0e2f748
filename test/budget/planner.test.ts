import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlanError, type Plan, PlanError, type PlanInput, planPolling } from '../../src/budget/planner.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The config defaults: 100/min, 1,000/day, reserve 50, gate every 2m, interval 30m, staleness 6h. */
const defaults: PlanInput = {
  watchlistSize: 0,
  perMinute: 100,
  perDay: 1000,
  reserve: 50,
  gate: true,
  gateIntervalMs: 2 * MINUTE,
  intervalMs: 30 * MINUTE,
  maxStalenessMs: 6 * HOUR,
  dayMs: DAY,
  minuteMs: MINUTE,
  gateShare: 0.1,
};

type Expected = Pick<
  Plan,
  | 'gate'
  | 'gateIntervalMs'
  | 'sweepIntervalMs'
  | 'maxStalenessMs'
  | 'refreshesPerDay'
  | 'gateChecksPerDay'
  | 'requestsPerDay'
  | 'minSweepMs'
>;

describe('planPolling with the gate on (defaults)', () => {
  it.each<[string, number, Expected]>([
    [
      'empty watchlist: gate checks only',
      0,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: 6 * HOUR,
        refreshesPerDay: 720,
        gateChecksPerDay: 720,
        requestsPerDay: 720,
        minSweepMs: 0,
      },
    ],
    [
      '10 issuers: 23 refreshes after 720 gate checks',
      10,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: 6 * HOUR,
        refreshesPerDay: 23,
        gateChecksPerDay: 720,
        requestsPerDay: 950,
        minSweepMs: MINUTE,
      },
    ],
    [
      '100 issuers: 2 refreshes, staleness raised to 1d so one refresh stays free',
      100,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: DAY,
        refreshesPerDay: 2,
        gateChecksPerDay: 720,
        requestsPerDay: 920,
        minSweepMs: MINUTE,
      },
    ],
    // Issue 16 changed the next rows: checks are cut and placed by the learned refresh times on the
    // configured tick (no longer spread by a raised interval), and the hard bound replaces "off".
    [
      '500 issuers: 450 checks on the 2m tick, one refresh, a 2-day hard bound',
      500,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: 2 * DAY,
        refreshesPerDay: 1,
        gateChecksPerDay: 450,
        requestsPerDay: 950,
        minSweepMs: 5 * MINUTE,
      },
    ],
    [
      '900 issuers: 50 checks on the 2m tick, a 2-day hard bound',
      900,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: 2 * DAY,
        refreshesPerDay: 1,
        gateChecksPerDay: 50,
        requestsPerDay: 950,
        minSweepMs: 9 * MINUTE,
      },
    ],
    [
      '950 issuers: the gate stays on with its floor of 48 checks; 902 polls a day, a 4-day bound (forced polls come a day and a half before it)',
      950,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: 4 * DAY,
        refreshesPerDay: 0,
        gateChecksPerDay: 48,
        requestsPerDay: 950,
        minSweepMs: 10 * MINUTE,
      },
    ],
    [
      '5,000 issuers (the whole directory): 48 checks, 902 polls a day, a 13-day bound (forced polls come a day and a half before it)',
      5000,
      {
        gate: true,
        gateIntervalMs: 2 * MINUTE,
        sweepIntervalMs: 2 * MINUTE,
        maxStalenessMs: 13 * DAY,
        refreshesPerDay: 0,
        gateChecksPerDay: 48,
        requestsPerDay: 950,
        minSweepMs: 50 * MINUTE,
      },
    ],
  ])('%s', (_name, watchlistSize, expected) => {
    expect(planPolling({ ...defaults, watchlistSize })).toMatchObject(expected);
  });
});

describe('planPolling with the gate off', () => {
  it.each<[string, Partial<PlanInput>, Pick<Plan, 'sweepIntervalMs' | 'refreshesPerDay' | 'requestsPerDay'>]>(
    [
      [
        'empty watchlist plans nothing',
        { watchlistSize: 0 },
        { sweepIntervalMs: 30 * MINUTE, refreshesPerDay: 0, requestsPerDay: 0 },
      ],
      [
        '10 issuers keep the configured 30m',
        { watchlistSize: 10 },
        { sweepIntervalMs: 30 * MINUTE, refreshesPerDay: 48, requestsPerDay: 480 },
      ],
      [
        '100 issuers: budget floor of 9 sweeps a day (2h 40m)',
        { watchlistSize: 100 },
        { sweepIntervalMs: 9_600_000, refreshesPerDay: 9, requestsPerDay: 900 },
      ],
      [
        '500 issuers: one whole sweep a day',
        { watchlistSize: 500 },
        { sweepIntervalMs: DAY, refreshesPerDay: 1, requestsPerDay: 500 },
      ],
      [
        '900 issuers: one sweep a day',
        { watchlistSize: 900 },
        { sweepIntervalMs: DAY, refreshesPerDay: 1, requestsPerDay: 900 },
      ],
      [
        'a longer configured interval is kept',
        { watchlistSize: 100, intervalMs: 4 * HOUR },
        { sweepIntervalMs: 4 * HOUR, refreshesPerDay: 6, requestsPerDay: 600 },
      ],
      [
        'physical floor: 900 issuers at 100/min need 9m even with a large daily cap',
        { watchlistSize: 900, perDay: 1_000_000, intervalMs: MINUTE },
        { sweepIntervalMs: 9 * MINUTE, refreshesPerDay: 160, requestsPerDay: 144_000 },
      ],
    ],
  )('%s', (_name, input, expected) => {
    const plan = planPolling({ ...defaults, gate: false, ...input });
    expect(plan).toMatchObject({ gate: false, gateChecksPerDay: 0, ...expected });
    // The interval is never below the design's floor W x day / (perDay - reserve).
    const size = input.watchlistSize ?? 0;
    const available = (input.perDay ?? defaults.perDay) - defaults.reserve;
    expect(plan.sweepIntervalMs).toBeGreaterThanOrEqual((size * DAY) / available);
  });
});

describe('planPolling records what it raised', () => {
  it.each<[string, Partial<PlanInput>, string[]]>([
    ['defaults with 10 issuers: nothing raised', { watchlistSize: 10 }, []],
    [
      'staleness raised for 100 issuers',
      { watchlistSize: 100 },
      [
        "poll.maxStaleness raised from 6h to 1d: 4 forced sweeps a day would leave no budget for the dataset's own refreshes (the budget pays for 2 sweeps a day)",
      ],
    ],
    [
      'gate interval and staleness raised for 900 issuers',
      { watchlistSize: 900 },
      [
        'gate checks cut from 720 to 50 a day (one every 28m 48s on average), placed at the times of day the dataset has been seen to refresh: 720 checks would leave 230 of the 950 requests available to polling, less than one full sweep of 900 issuers',
        'poll.maxStaleness raised from 6h to 2d: the budget pays for 900 polls a day across 900 issuers, and polls forced by the bound may take at most half of them',
      ],
    ],
    [
      'gate interval raised for an empty watchlist when the checks alone exceed the budget',
      { watchlistSize: 0, gateIntervalMs: MINUTE },
      [
        'gate checks cut from 1440 to 950 a day (one every 1m 31s on average), placed at the times of day the dataset has been seen to refresh: 1440 checks would leave 0 of the 950 requests available to polling, less than one full sweep of 0 issuers',
      ],
    ],
    [
      'a gate interval under the gate share of a minute is raised (budget.gateShare)',
      { watchlistSize: 10, gateIntervalMs: 1_000 },
      [
        "poll.gateInterval raised from 1s to 6s: the gate may take at most 10 requests of each minute's 100 (budget.gateShare 0.1), so polls are never starved by gate checks",
        'gate checks cut from 14400 to 940 a day (one every 1m 32s on average), placed at the times of day the dataset has been seen to refresh: 14400 checks would leave 0 of the 950 requests available to polling, less than one full sweep of 10 issuers',
        'poll.maxStaleness raised from 6h to 2d: the budget pays for 10 polls a day across 10 issuers, and polls forced by the bound may take at most half of them',
      ],
    ],
    [
      'interval raised to the budget floor without the gate',
      { watchlistSize: 100, gate: false },
      [
        'poll.interval raised from 30m to 2h 40m: a sweep costs 100 requests and 950 a day are available to polling, so the budget pays for 9 sweeps a day',
      ],
    ],
    [
      'interval raised to the physical floor without the gate',
      { watchlistSize: 900, gate: false, perDay: 1_000_000, intervalMs: MINUTE },
      [
        'poll.interval raised from 1m to 9m: the per-minute cap (100 requests a minute) spreads a full sweep of 900 issuers over 9 minute windows, so full sweeps cannot repeat more often than every 9m',
      ],
    ],
  ])('%s', (_name, input, adjusted) => {
    expect(planPolling({ ...defaults, ...input }).adjusted).toEqual(adjusted);
  });
});

describe('planPolling summary', () => {
  it.each<[string, Partial<PlanInput>, string[]]>([
    [
      'gate on, 10 issuers',
      { watchlistSize: 10 },
      [
        'The gate checks GET /issuers 720 times a day, every 2m (at most 1 check a minute).',
        'The budget can follow 23 dataset refreshes a day across 10 issuers with a full sweep each; each sweep polls the issuers most likely to have changed first.',
        'No watched issuer goes unpolled longer than 6h (the hard bound, poll.maxStaleness), even when the dataset has not moved.',
        'A full sweep of 10 issuers fits within the per-minute cap (100 requests a minute), so it is not held back by it.',
        'The plan spends at most 950 requests a day of the 950 available to polling (perDay 1000 - reserve 50); the reserve is kept for interactive commands.',
      ],
    ],
    [
      'gate on, empty watchlist',
      { watchlistSize: 0 },
      [
        'The gate checks GET /issuers 720 times a day, every 2m (at most 1 check a minute).',
        'The watchlist is empty, so no issuer is polled.',
        'The plan spends at most 720 requests a day of the 950 available to polling (perDay 1000 - reserve 50); the reserve is kept for interactive commands.',
      ],
    ],
    [
      'gate on, 900 issuers',
      { watchlistSize: 900 },
      [
        'The gate checks GET /issuers 50 times a day (at most 1 check a minute, at most one every 2m), placed where the dataset has been seen to refresh (the times of day of its last_updated) with a floor spread over the rest of the day; spread evenly they would be one every 28m 48s.',
        'The budget can follow 1 dataset refresh a day across 900 issuers with a full sweep each; each sweep polls the issuers most likely to have changed first.',
        'No watched issuer goes unpolled longer than 2d (the hard bound, poll.maxStaleness), even when the dataset has not moved.',
        'The per-minute cap (100 requests a minute) spreads a full sweep of 900 issuers over 9 minute windows, so full sweeps cannot repeat more often than every 9m.',
        'The plan spends at most 950 requests a day of the 950 available to polling (perDay 1000 - reserve 50); the reserve is kept for interactive commands.',
      ],
    ],
    [
      'gate off, 100 issuers',
      { watchlistSize: 100, gate: false },
      [
        'Without the gate every sweep polls all 100 issuers: one sweep every 2h 40m (9 sweeps a day).',
        'A full sweep of 100 issuers fits within the per-minute cap (100 requests a minute), so it is not held back by it.',
        'The plan spends at most 900 requests a day of the 950 available to polling (perDay 1000 - reserve 50); the reserve is kept for interactive commands.',
      ],
    ],
    [
      'gate off, empty watchlist',
      { watchlistSize: 0, gate: false },
      [
        'The gate is off and the watchlist is empty, so no request is planned.',
        'The plan spends at most 0 requests a day of the 950 available to polling (perDay 1000 - reserve 50); the reserve is kept for interactive commands.',
      ],
    ],
  ])('%s', (_name, input, summary) => {
    expect(planPolling({ ...defaults, ...input }).summary).toEqual(summary);
  });
});

describe('planPolling refuses a watchlist the day cannot sweep once without the gate', () => {
  // Issue 16: with the gate on, a watchlist larger than the day's budget is planned (the explained plan
  // above); only a sweep of the whole watchlist without the gate must still fit one day.
  it.each<[string, Partial<PlanInput>, string]>([
    [
      '951 issuers with the gate off',
      { watchlistSize: 951, gate: false },
      'a watchlist of 951 issuers needs 951 requests for one sweep but only 950 a day are available to polling (perDay 1000 - reserve 50)',
    ],
    [
      '300 issuers with a big reserve and the gate off',
      { watchlistSize: 300, perDay: 500, reserve: 250, gate: false },
      'a watchlist of 300 issuers needs 300 requests for one sweep but only 250 a day are available to polling (perDay 500 - reserve 250)',
    ],
  ])('%s', (_name, input, message) => {
    let caught: unknown;
    try {
      planPolling({ ...defaults, ...input });
    } catch (error) {
      caught = error;
    }
    expect(isPlanError(caught)).toBe(true);
    expect(caught).toBeInstanceOf(PlanError);
    expect(caught).toHaveProperty('message', message);
    expect(caught).toMatchObject({ watchlistSize: input.watchlistSize });
  });

  it.each([951, 1_200, 5_000])(
    'plans %i issuers with the gate on, within the budget and a finite bound',
    (size) => {
      const plan = planPolling({ ...defaults, watchlistSize: size });
      expect(plan.requestsPerDay).toBeLessThanOrEqual(950);
      expect(plan.gateChecksPerDay + plan.pollsPerDay).toBe(950);
      expect(Number.isFinite(plan.maxStalenessMs)).toBe(true);
    },
  );
});

describe('planPolling invariants', () => {
  it('never plans more than perDay - reserve requests in a day window, and only raises intervals', () => {
    fc.assert(
      fc.property(
        fc.record({
          perDay: fc.integer({ min: 2, max: 20_000 }),
          reserveShare: fc.double({ min: 0, max: 0.9, noNaN: true }),
          sizeShare: fc.double({ min: 0, max: 1, noNaN: true }),
          perMinute: fc.integer({ min: 1, max: 500 }),
          gate: fc.boolean(),
          gateIntervalMs: fc.integer({ min: 1_000, max: 2 * DAY }),
          intervalMs: fc.integer({ min: 1_000, max: 2 * DAY }),
          maxStalenessMs: fc.integer({ min: MINUTE, max: 7 * DAY }),
        }),
        (sample) => {
          const reserve = Math.floor(sample.perDay * sample.reserveShare);
          const available = sample.perDay - reserve;
          const input: PlanInput = {
            ...defaults,
            ...sample,
            reserve,
            watchlistSize: Math.floor(available * sample.sizeShare),
          };
          const plan = planPolling(input);
          expect(plan.requestsPerDay).toBeLessThanOrEqual(available);
          expect(plan.gateIntervalMs).toBeGreaterThanOrEqual(input.gateIntervalMs);
          expect(plan.sweepIntervalMs).toBeGreaterThanOrEqual(
            plan.gate ? plan.gateIntervalMs : input.intervalMs,
          );
          expect(plan.maxStalenessMs).toBeGreaterThanOrEqual(input.maxStalenessMs);
          if (input.watchlistSize > 0 && plan.refreshesPerDay < 1) {
            // Fewer polls a day than issuers: a finite hard bound within which forced polls fit.
            expect(plan.pollsPerDay).toBeGreaterThanOrEqual(1);
            expect(Number.isFinite(plan.maxStalenessMs)).toBe(true);
          }
          expect(plan.gateChecksPerMinute).toBeLessThanOrEqual(
            Math.max(
              1,
              Math.ceil((input.minuteMs * Math.max(1, Math.floor(input.perMinute * 0.1))) / input.minuteMs),
            ),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
