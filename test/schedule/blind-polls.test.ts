import { describe, expect, it } from 'vitest';
import {
  type BlindInput,
  blindIntervalMs,
  blindListDue,
  blindListIntervalMs,
  listWeight,
  selectBlindPolls,
} from '../../src/schedule/blind-polls.js';

const NOW = 1_000_000_000;
const DAY = 86_400_000;

function input(overrides: Partial<BlindInput>): BlindInput {
  return {
    issuers: [],
    nowMs: NOW,
    spendable: 900,
    untilDayEndMs: DAY,
    tickMs: 120_000,
    perMinute: 90,
    minuteMs: 60_000,
    ...overrides,
  };
}

const issuers = (count: number, polledAtMs: number | null) =>
  Array.from({ length: count }, (_, i) => ({ id: `ISS-${i}`, polledAtMs }));

describe('blind polling: a list without a version', () => {
  it('spreads the day budget over the day: 100 issuers, 900 tokens, each in turn every 2.67 hours', () => {
    expect(blindIntervalMs(input({}), 100) / 3_600_000).toBeCloseTo(2.67, 2);
  });

  it('4 issuers and a large budget: each polled every few seconds, within the minute cap', () => {
    const polls = selectBlindPolls(input({ issuers: issuers(4, NOW), spendable: 1_000_000, perMinute: 90 }));
    // 90 a minute for 4 issuers: each every 2.67 s, so a 2-minute tick holds about 180 polls.
    expect(polls.length).toBeGreaterThanOrEqual(175);
    expect(polls.length).toBeLessThanOrEqual(180);
    const perMinute = polls.filter((p) => p.atMs < NOW + 60_000).length;
    expect(perMinute).toBeLessThanOrEqual(90);
    const first = polls.filter((p) => p.id === 'ISS-0').map((p) => p.atMs);
    expect((first[1] ?? 0) - (first[0] ?? 0)).toBeCloseTo(2_667, -1);
    // Issuers polled together are spread, not bunched: consecutive polls about 667 ms apart.
    expect(polls.slice(0, 4).map((p) => p.atMs - NOW)).toEqual([2_667, 3_333, 4_000, 4_667]);
  });

  it('issuers never polled are spread over one interval, longest unpolled first', () => {
    const polls = selectBlindPolls(
      input({
        issuers: [...issuers(3, null), { id: 'old', polledAtMs: NOW - 10 * DAY }],
        spendable: 99_000,
        perMinute: 4,
      }),
    );
    expect(polls.slice(0, 4).map((p) => p.atMs - NOW)).toEqual([0, 15_000, 30_000, 45_000]);
  });

  it('an issuer polled recently waits for its turn; nothing is planned with no tokens', () => {
    expect(selectBlindPolls(input({ issuers: issuers(10, NOW - 60_000) }))).toEqual([]);
    expect(selectBlindPolls(input({ issuers: issuers(10, null), spendable: 0 }))).toEqual([]);
  });

  it('never plans more polls than tokens', () => {
    expect(
      selectBlindPolls(
        input({ issuers: issuers(50, null), spendable: 7, untilDayEndMs: 60_000, perMinute: 1_000 }),
      ),
    ).toHaveLength(7);
  });

  describe('the issuer list read at its turn in the rotation', () => {
    it('counts as one member from 99 issuers, and takes at most 1% of the tokens below', () => {
      expect(listWeight(100)).toBe(1);
      expect(listWeight(900)).toBe(1);
      for (const size of [1, 10, 50, 98]) {
        const weight = listWeight(size);
        expect(weight).toBeLessThan(1);
        expect(weight / (size + weight)).toBeCloseTo(0.01, 10);
      }
    });

    it('10 issuers, 950 tokens a day: each every 15.3 minutes (a round-robin: 15.2), the list every 2.5 hours', () => {
      const pace = { spendable: 950, untilDayEndMs: DAY, perMinute: 90, minuteMs: 60_000 };
      const polls = selectBlindPolls({
        ...input(pace),
        issuers: issuers(10, NOW - DAY),
        listInRotation: true,
        tickMs: DAY,
      });
      const first = polls.filter((p) => p.id === 'ISS-0').map((p) => p.atMs);
      expect(((first[1] ?? 0) - (first[0] ?? 0)) / 60_000).toBeCloseTo(15.31, 2);
      expect(blindListIntervalMs(pace, 10) / 3_600_000).toBeCloseTo(2.53, 2);
      // Without the list in the rotation the issuers alone share the tokens.
      expect(blindIntervalMs(pace, 10) / 60_000).toBeCloseTo(15.16, 2);
    });

    it('with no issuers the list is read as the only member', () => {
      const pace = { spendable: 24, untilDayEndMs: DAY, perMinute: 90, minuteMs: 60_000 };
      expect(blindListIntervalMs(pace, 0)).toBe(3_600_000);
    });

    it('is read at the tick nearest its turn, and at once when never read', () => {
      const due = (lastCheckMs: number | null) =>
        blindListDue({ nowMs: NOW, lastCheckMs, tickMs: 120_000, intervalMs: 3_600_000 });
      expect(due(null)).toBe(true);
      expect(due(NOW - 3_540_000)).toBe(true);
      expect(due(NOW - 3_539_999)).toBe(false);
      expect(due(NOW - 60_000)).toBe(false);
    });
  });

  it('a budget far beyond the watchlist never plans more than one poll per issuer a second (chaos: 16,666 a tick before)', () => {
    const polls = selectBlindPolls(
      input({
        issuers: issuers(50, null),
        spendable: 10_000_000,
        perMinute: 50_000,
        minuteMs: 3_000,
        tickMs: 1_000,
      }),
    );
    expect(polls.length).toBeLessThanOrEqual(50);
    expect(new Set(polls.map((p) => p.id)).size).toBe(polls.length);
  });
});
