import { describe, expect, it } from 'vitest';
import { ChangeTracker } from '../../bench/sim/change-tracker.js';
import { runDetection } from '../../bench/sim/detection-run.js';
import { VirtualClock } from '../../bench/sim/event-queue.js';

describe('VirtualClock', () => {
  it('runs callbacks in time order, ties in scheduling order, and jumps the clock', () => {
    const clock = new VirtualClock(100);
    const seen: string[] = [];
    clock.at(300, () => seen.push(`c@${clock.now()}`));
    clock.at(200, () => {
      seen.push(`a@${clock.now()}`);
      clock.at(200, () => seen.push(`b@${clock.now()}`));
    });
    clock.at(50, () => seen.push(`late@${clock.now()}`));
    clock.at(400, () => seen.push('never'));
    clock.runUntil(350);
    expect(seen).toEqual(['late@100', 'a@200', 'b@200', 'c@300']);
    expect(clock.now()).toBe(350);
  });
});

describe('ChangeTracker', () => {
  it('times each change from its first refresh to the first poll that shows an event', () => {
    const tracker = new ChangeTracker();
    tracker.changed(['A', 'B', 'C'], 1_000);
    tracker.changed(['A'], 2_000);
    tracker.polled('A', 5_000, 1);
    tracker.polled('B', 3_000, 0);
    tracker.polled('A', 6_000, 1);
    expect(tracker.latenciesMs).toEqual([4_000]);
    expect(tracker.netted).toBe(1);
    expect(tracker.undetected()).toBe(1);
  });
});

describe('runDetection', () => {
  it('finds every change with both pollers and keeps shortwatch within the budget', () => {
    const run = runDetection({ watchlistSize: 10, seed: 3, days: 2, drainDays: 1, requestMs: 25 });
    const available = run.config.budget.perDay - run.config.budget.reserve;
    expect(run.changes).toBeGreaterThan(0);
    expect(run.shortwatch.latenciesMs.length + run.shortwatch.netted).toBe(run.changes);
    expect(run.naive.latenciesMs.length + run.naive.netted).toBe(run.changes);
    expect(Math.max(...run.shortwatch.requestsPerDay)).toBeLessThanOrEqual(available);
    expect(run.naive.requestsPerDay).toEqual([available, available]);
    // The gate checks every 2 minutes and a sweep of 10 issuers takes well under a minute.
    expect(Math.max(...run.shortwatch.latenciesMs)).toBeLessThan(3 * 60_000);
  });

  it('gives an issuer a staleness poll every maxStaleness, as deduplication holds only while a poll is pending', () => {
    const run = runDetection({ watchlistSize: 10, seed: 3, days: 2, drainDays: 1, requestMs: 25 });
    const simulatedDays = 2 + 1 + 1;
    expect(run.plan.maxStalenessMs).toBe(6 * 3_600_000);
    // Ids kept for 24 h after completion would allow at most one a day per issuer.
    expect(run.shortwatch.requestsBy.stale).toBeGreaterThan(2 * 10 * simulatedDays);
  });

  it("enriches closed events only while a whole sweep and the day's gate checks still fit", () => {
    const run = runDetection({ watchlistSize: 200, seed: 1, days: 2, drainDays: 1, requestMs: 25 });
    const { reserve } = run.config.budget;
    expect(run.shortwatch.requestsBy.enrich).toBeGreaterThan(0);
    expect(run.shortwatch.enrichSkipped).toBeGreaterThan(0);
    for (const left of run.shortwatch.enrichDayLeft) expect(left - reserve).toBeGreaterThan(200);
    // At 500 issuers the day's gate checks take what a sweep leaves: no history request at all.
    const busy = runDetection({ watchlistSize: 500, seed: 1, days: 2, drainDays: 1, requestMs: 25 });
    expect(busy.shortwatch.requestsBy.enrich + busy.shortwatch.requestsBy.history).toBe(0);
    // Overlapping gate checks during a sweep enqueue each issuer's poll once.
    expect(run.shortwatch.requestsBy.changed + run.shortwatch.requestsBy.new).toBeLessThanOrEqual(200 * 3);
  });

  it.each([
    ['every refresh at noon: no late polls', [12, 12, 12, 12], [0, 0, 0, 0]],
    // Issue 16 (no midnight debt): the sweep queues no more polls than today's budget pays for, so a
    // late refresh's leftover polls are chosen again with the next day's plan, never run as debt.
    [
      "a refresh late in the day: no poll spills into the next day's tokens",
      [23.7, 12, 12, 12],
      [0, 0, 0, 0],
    ],
  ])('W=900, %s', (_, hours, inDebt) => {
    const run = runDetection({
      watchlistSize: 900,
      seed: 1,
      days: 4,
      drainDays: 1,
      requestMs: 25,
      refreshTimesOfDay: hours.map((h) => h * 3_600_000),
    });
    expect(run.shortwatch.spilledPerDay.map((late) => (late > 800 ? 1 : late))).toEqual(inDebt);
    expect(Math.max(...run.shortwatch.requestsPerDay)).toBeLessThanOrEqual(950);
  });
});

describe('runDetection over a list without versions (last_updated: null)', () => {
  const blindRun = (listInRotation: boolean) =>
    runDetection({
      watchlistSize: 10,
      seed: 3,
      days: 2,
      drainDays: 1,
      requestMs: 25,
      unversioned: { listInRotation },
    });
  const simulatedDays = 2 + 1 + 1;

  it('finds every change with blind polls only, the list still read at every gate check by the sweep as it is', () => {
    const run = blindRun(false);
    const by = run.shortwatch.requestsBy;
    expect(run.shortwatch.latenciesMs.length + run.shortwatch.netted).toBe(run.changes);
    expect(by.changed + by.new + by.stale).toBe(0);
    // 720 gate checks a day, and the checks still due set aside: about 230 polls a day for 10 issuers.
    expect(by.gate / simulatedDays).toBeGreaterThan(700);
    expect(by.blind / simulatedDays).toBeLessThan(250);
  });

  it('polls at the round-robin pace when the list is read at its turn', () => {
    const run = blindRun(true);
    const by = run.shortwatch.requestsBy;
    expect(run.shortwatch.latenciesMs.length + run.shortwatch.netted).toBe(run.changes);
    expect(by.gate / simulatedDays).toBeLessThan(12);
    // The round-robin spends 950 a day on polls; the list takes at most 1% of that.
    expect(by.blind / simulatedDays).toBeGreaterThan(930);
    expect(Math.max(...run.shortwatch.requestsPerDay)).toBeLessThanOrEqual(950);
  });
});
