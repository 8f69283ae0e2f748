import { describe, expect, it } from 'vitest';
import {
  checkDue,
  estimateChangeRate,
  learnProfile,
  placeChecks,
  rankCandidates,
  refreshesLater,
  selectPolls,
  spendNow,
  uniformProfile,
} from '../../src/schedule/index.js';

const DAY = 86_400_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;

type SelectBudget = Parameters<typeof selectPolls>[0]['budget'];
/** A Monday, 00:00 UTC. */
const MONDAY = Date.UTC(2026, 0, 5);
const date = (daysBefore: number) => new Date(MONDAY - daysBefore * DAY).toISOString().slice(0, 10);

describe('estimateChangeRate', () => {
  it.each([
    ['nothing known: the prior', { holderDates: [] }, 0.01, 0.01],
    ['one holder quiet for a year: a few a year', { holderDates: [date(300)] }, 0.002, 0.006],
    [
      'ten holders each moved within two weeks: a busy name',
      { holderDates: Array.from({ length: 10 }, (_, i) => date(i + 2)) },
      0.3,
      0.8,
    ],
    [
      'quiet holders, but shortwatch saw 20 changes in 40 days',
      { holderDates: [date(200)], observed: { changes: 20, days: 40 } },
      0.05,
      0.5,
    ],
  ])('%s', (_name, evidence, low, high) => {
    const rate = estimateChangeRate(evidence, MONDAY);
    expect(rate).toBeGreaterThanOrEqual(low);
    expect(rate).toBeLessThanOrEqual(high);
  });

  it('ranks a crowded, recently moved issuer above a quiet one', () => {
    const busy = estimateChangeRate({ holderDates: [date(1), date(3), date(5), date(8)] }, MONDAY);
    const quiet = estimateChangeRate({ holderDates: [date(90)] }, MONDAY);
    expect(busy).toBeGreaterThan(10 * quiet);
  });
});

describe('rankCandidates', () => {
  const version = MONDAY;
  const issuers = [
    { id: 'quiet', seenVersionMs: version - DAY, polledAtMs: version - DAY, rate: 0.01 },
    { id: 'busy', seenVersionMs: version - DAY, polledAtMs: version - DAY, rate: 0.5 },
    { id: 'new', seenVersionMs: null, polledAtMs: null, rate: 0 },
    { id: 'old', seenVersionMs: version - 11 * DAY, polledAtMs: version - 11.9 * DAY, rate: 0.001 },
    { id: 'current', seenVersionMs: version, polledAtMs: version + MINUTE, rate: 1 },
  ];

  it('puts new issuers first, then those at the hard bound, then the likeliest changes; skips current ones', () => {
    const ranked = rankCandidates(issuers, version, version + 2 * MINUTE, 12 * DAY);
    expect(ranked.map((c) => [c.id, c.reason])).toEqual([
      ['new', 'new'],
      ['old', 'stale'],
      ['busy', 'changed'],
      ['quiet', 'changed'],
    ]);
    expect(ranked[2]?.changeChance).toBeGreaterThan(ranked[3]?.changeChance ?? 1);
  });

  it('lets a quiet issuer overtake a busy one once the days it missed outweigh the square of its lower rate', () => {
    const rank = (quietMissedDays: number) =>
      rankCandidates(
        [
          { id: 'busy', seenVersionMs: version - DAY, polledAtMs: version - DAY, rate: 0.05 },
          {
            id: 'quiet',
            seenVersionMs: version - quietMissedDays * DAY,
            polledAtMs: version - quietMissedDays * DAY,
            rate: 0.02,
          },
        ],
        version,
        version,
        30 * DAY,
      ).map((c) => c.id);
    // (0.05 / 0.02)² = 6.25 days missed for every day the busy issuer missed.
    expect(rank(6)).toEqual(['busy', 'quiet']);
    expect(rank(7)).toEqual(['quiet', 'busy']);
  });
});

describe('spendNow', () => {
  it.each<[string, number[], number[], number, number, number]>([
    ['no refresh expected: everything now', [0.1, 0.05], [0.9], 0, 10, 2],
    ['a refresh expected: the busy issuers keep their tokens', [0.1, 0.05], [0.9, 0.8], 1, 2, 0],
    ['a likely change now beats an unlikely refresh', [0.5, 0.01], [0.9], 0.2, 2, 1],
    ['never more than the tokens', [0.5, 0.5, 0.5], [], 0, 2, 2],
  ])('%s', (_name, now, later, refreshes, tokens, expected) => {
    expect(spendNow(now, later, refreshes, tokens)).toBe(expected);
  });
});

describe('selectPolls: no midnight debt', () => {
  const issuers = Array.from({ length: 50 }, (_, i) => ({
    id: `I${i}`,
    seenVersionMs: MONDAY - DAY,
    polledAtMs: MONDAY - DAY,
    rate: 0.1,
  }));
  const budget = { tokensLeft: 30, checksLeft: 5, queued: 0, refreshesLater: 0 };

  it.each([
    ['no more than today pays for after the checks left', budget, 25],
    ['polls already queued count first', { ...budget, queued: 20 }, 5],
    ['a spent day queues nothing', { ...budget, tokensLeft: 5 }, 0],
  ])('%s', (_name, b, count) => {
    expect(
      selectPolls({ issuers, versionMs: MONDAY, nowMs: MONDAY + MINUTE, boundMs: 12 * DAY, budget: b }),
    ).toHaveLength(count);
  });
});

describe('selectPolls with full sweeps (the plan pays a sweep per refresh)', () => {
  // Ten issuers, two busy; the dataset moved at 20:00 (a late refresh), the day's checks still planned.
  const issuers = Array.from({ length: 10 }, (_, i) => ({
    id: `I${i}`,
    seenVersionMs: MONDAY - DAY,
    polledAtMs: MONDAY - DAY + HOUR,
    rate: i < 2 ? 0.5 : 0.01,
  }));
  const at = MONDAY + 20 * HOUR;
  const select = (fullSweeps: boolean, budget: Partial<SelectBudget> = {}, list = issuers) =>
    selectPolls({
      issuers: list,
      versionMs: at - MINUTE,
      nowMs: at,
      boundMs: 2 * DAY,
      budget: { tokensLeft: 20, checksLeft: 15, queued: 0, refreshesLater: 0, ...budget },
      fullSweeps,
    });

  it("polls a refresh already seen before the day's later gate checks, which the old policy did too", () => {
    expect(select(false)).toHaveLength(5);
    expect(select(true).map((c) => c.id)).toEqual([
      'I0',
      'I1',
      'I2',
      'I3',
      'I4',
      'I5',
      'I6',
      'I7',
      'I8',
      'I9',
    ]);
  });

  it('holds no change back for a refresh expected later: the budget pays for both', () => {
    expect(select(true, { tokensLeft: 30, checksLeft: 0, refreshesLater: 0.9 })).toHaveLength(10);
  });

  it('polls the issuers that missed the most refreshes first when the day runs short', () => {
    const behind = issuers.map((i) => (i.id === 'I9' ? { ...i, seenVersionMs: MONDAY - 3 * DAY } : i));
    expect(select(true, { tokensLeft: 3 }, behind).map((c) => c.id)).toEqual(['I9', 'I0', 'I1']);
  });

  it('keeps forced polls off the tokens of a refresh still expected today, whose sweep polls them anyway', () => {
    const old = issuers.map((i) => ({ ...i, seenVersionMs: at - 3 * DAY, polledAtMs: at - 3 * DAY }));
    const morning = { tokensLeft: 25, checksLeft: 10, refreshesLater: 0.9 };
    const forced = (full: boolean, b: Partial<SelectBudget>) =>
      selectPolls({
        issuers: old,
        versionMs: null,
        nowMs: at,
        boundMs: 2 * DAY,
        budget: { queued: 0, refreshesLater: 0, tokensLeft: 0, checksLeft: 0, ...b },
        refreshTimesKnown: true,
        fullSweeps: full,
      });
    expect(forced(true, morning)).toHaveLength(5);
    expect(forced(true, { ...morning, refreshesLater: 0 })).toHaveLength(10);
    // Without full sweeps every token waits for the refresh: polls after it find its changes too.
    expect(forced(false, morning)).toHaveLength(0);
    expect(forced(false, { ...morning, refreshesLater: 0 })).toHaveLength(10);
    // Once the refresh came, those same issuers are polled as its changes.
    const refreshed = selectPolls({
      issuers: old,
      versionMs: at - MINUTE,
      nowMs: at,
      boundMs: 2 * DAY,
      budget: { ...morning, queued: 0 },
      seenToday: 1,
      fullSweeps: true,
    });
    expect(refreshed).toHaveLength(10);
  });
});

describe("selectPolls: the tokens of the day's refresh are kept until it comes", () => {
  // Ten issuers behind yesterday's refresh (part of a late publication's sweep was refused), and
  // today's refresh not seen yet at 08:00: tokens for exactly one sweep and the day's checks.
  const behind = Array.from({ length: 10 }, (_, i) => ({
    id: `I${i}`,
    seenVersionMs: MONDAY - 2 * DAY,
    polledAtMs: MONDAY - 2 * DAY + HOUR,
    rate: 0.1,
  }));
  const select = (nowMs: number, extra: Partial<Parameters<typeof selectPolls>[0]> = {}) =>
    selectPolls({
      issuers: behind,
      versionMs: MONDAY - DAY,
      nowMs,
      boundMs: 4 * DAY,
      budget: { tokensLeft: 15, checksLeft: 5, queued: 0, refreshesLater: 0.9 },
      untilDayEndMs: MONDAY + DAY - nowMs,
      fullSweepMs: 10 * MINUTE,
      fullSweeps: true,
      refreshTimesKnown: true,
      ...extra,
    });

  it("does not spend today's sweep on the stragglers of yesterday's: today's sweep polls them anyway", () => {
    // Before: polled at once, so today's own sweep ran short and its tail waited for midnight.
    expect(select(MONDAY + 8 * HOUR)).toHaveLength(0);
    expect(select(MONDAY + 8 * HOUR, { seenToday: 1 })).toHaveLength(10);
    // Before the refresh times are learned nothing is held back: a new deployment polls at once.
    expect(select(MONDAY + 8 * HOUR, { refreshTimesKnown: false })).toHaveLength(10);
  });

  it('lets the tokens go when too little of the day is left for a sweep, forcing what tomorrow could not', () => {
    const late = MONDAY + DAY - 5 * MINUTE;
    // 3.2 days old against a 4-day bound: forced now (tomorrow may keep its tokens all day again),
    // where the usual lead (a twentieth of the bound) would wait until 3.8 days.
    const chosen = select(late, { issuers: behind.map((i) => ({ ...i, polledAtMs: late - 3.2 * DAY })) });
    expect(chosen).toHaveLength(10);
    expect(chosen.every((c) => c.reason === 'stale')).toBe(true);
  });

  it('forces nothing at the end of a day that held no tokens, however short the bound', () => {
    // Before: the day-end lead (a whole day) applied every day, so with a 24-hour bound every issuer,
    // even one polled an hour ago, was polled again before midnight.
    const late = MONDAY + DAY - 90_000;
    const recent = behind.map((i) => ({ ...i, seenVersionMs: MONDAY - DAY, polledAtMs: late - HOUR }));
    const chosen = select(late, {
      issuers: recent,
      boundMs: DAY,
      seenToday: 1,
      budget: { tokensLeft: 500, checksLeft: 5, queued: 0, refreshesLater: 0 },
    });
    expect(chosen.filter((c) => c.reason === 'stale')).toEqual([]);
  });

  it("without full sweeps, forces at once what would pass the bound before tomorrow's end", () => {
    const nowMs = MONDAY + 15 * HOUR;
    const partial = (ageDays: number) =>
      select(nowMs, {
        issuers: behind.map((i) => ({ ...i, polledAtMs: nowMs - ageDays * DAY })),
        budget: { tokensLeft: 15, checksLeft: 5, queued: 0, refreshesLater: 0 },
        seenToday: 1,
        fullSweeps: false,
      }).filter((c) => c.reason === 'stale');
    // 9 hours left today plus tomorrow: 2.4 days before a 4-day bound.
    expect(partial(1.5)).toHaveLength(0);
    expect(partial(2.7)).toHaveLength(10);
  });
});

describe('refresh profile and gate placement', () => {
  // Four weeks of publications at 14:30 UTC on weekdays.
  const refreshes: number[] = [];
  for (let d = 0; d < 28; d++) {
    const at = MONDAY - 28 * DAY + d * DAY;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) refreshes.push(at + 14.5 * 3_600_000);
  }
  const profile = learnProfile(refreshes, MONDAY, DAY);

  it('expects about one refresh on a weekday before the publication hour, none after it or at weekends', () => {
    expect(refreshesLater(profile, MONDAY + 9 * 3_600_000, DAY)).toBeGreaterThan(0.8);
    expect(refreshesLater(profile, MONDAY + 16 * 3_600_000, DAY, 1)).toBeLessThan(0.1);
    expect(refreshesLater(profile, MONDAY - DAY + 9 * 3_600_000, DAY)).toBeLessThan(0.2);
  });

  it('counts a refresh not seen by 20:00 on a publishing weekday as overdue, not unlikely (a late publication)', () => {
    // Before: the share of the profile still ahead (a few percent at 20:00), so forced polls took the
    // tokens of the late publication's sweep.
    expect(refreshesLater(profile, MONDAY + 20 * HOUR, DAY)).toBeGreaterThan(0.5);
    expect(refreshesLater(profile, MONDAY + 20 * HOUR, DAY, 1)).toBeLessThan(0.05);
  });

  it('places most of 50 checks near the publication hour and keeps a floor elsewhere', () => {
    const offsets = placeChecks(profile, 50, 2 * MINUTE, DAY);
    expect(offsets).toHaveLength(50);
    const near = offsets.filter((o) => Math.abs(o - 14.5 * 3_600_000) <= 45 * MINUTE);
    expect(near.length).toBeGreaterThanOrEqual(25);
    const gaps = offsets.map((o, i) => (offsets[i + 1] ?? (offsets[0] ?? 0) + DAY) - o);
    expect(Math.max(...gaps)).toBeLessThan(3 * 3_600_000);
  });

  it('spreads checks evenly before anything is learned, and checks every tick when it can', () => {
    const even = placeChecks(uniformProfile(), 48, 2 * MINUTE, DAY);
    expect(even[1]! - even[0]!).toBe(30 * MINUTE);
    expect(placeChecks(uniformProfile(), 720, 2 * MINUTE, DAY)).toHaveLength(720);
  });

  it.each([
    ['a planned check passed since the last one', [10 * MINUTE], 5 * MINUTE, 10 * MINUTE, true],
    ['no planned check since the last one', [10 * MINUTE], 10 * MINUTE, 12 * MINUTE, false],
    ["yesterday's last check, today's first is due", [MINUTE], DAY - MINUTE, DAY + MINUTE, true],
    ['never checked', [10 * MINUTE], null, MINUTE, true],
  ])('checkDue: %s', (_name, offsets, last, now, due) => {
    expect(checkDue(offsets, last, now, DAY)).toBe(due);
  });
});
