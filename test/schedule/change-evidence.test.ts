import { describe, expect, it } from 'vitest';
import {
  estimateChangeRate,
  historyEvidence,
  observedEvidence,
  snapshotRate,
} from '../../src/schedule/index.js';

const DAY = 86_400_000;
/** A Monday, 00:00 UTC. */
const MONDAY = Date.UTC(2026, 0, 5);
const date = (daysBefore: number) => new Date(MONDAY - daysBefore * DAY).toISOString().slice(0, 10);
const iso = (daysBefore: number) => new Date(MONDAY - daysBefore * DAY).toISOString();

describe('historyEvidence: a status=all history as changes over days', () => {
  it.each<{ name: string; dates: string[]; asOf: number; changes: number; days: number }>([
    { name: 'no history: no evidence', dates: [], asOf: MONDAY, changes: 0, days: 0 },
    {
      name: 'distinct disclosure days in the last year, over the year',
      dates: [date(3), date(3), date(40), date(200)],
      asOf: MONDAY,
      changes: 3,
      days: 365,
    },
    {
      name: 'older than a year: a quiet year',
      dates: [date(400), date(500)],
      asOf: MONDAY,
      changes: 0,
      days: 365,
    },
    {
      name: 'as of an earlier day: what came after it is left to the watch record',
      dates: [date(3), date(40), date(200)],
      asOf: MONDAY - 10 * DAY,
      changes: 2,
      days: 365,
    },
    {
      name: 'an unreadable date is skipped',
      dates: ['not a date', date(5)],
      asOf: MONDAY,
      changes: 1,
      days: 365,
    },
  ])('$name', ({ dates, asOf, changes, days }) => {
    expect(historyEvidence(dates, asOf)).toEqual({ changes, days });
  });
});

describe('observedEvidence: polls that found events over the days watched', () => {
  it.each<{ name: string; since: string; changes: number; expected: { changes: number; days: number } }>([
    { name: 'ten days, four changes', since: iso(10), changes: 4, expected: { changes: 4, days: 10 } },
    {
      name: 'a since ahead of now (clock skew): no days',
      since: iso(-1),
      changes: 0,
      expected: { changes: 0, days: 0 },
    },
    {
      name: 'an unreadable since: no evidence',
      since: 'garbled',
      changes: 5,
      expected: { changes: 0, days: 0 },
    },
  ])('$name', ({ since, changes, expected }) => {
    expect(observedEvidence({ since, changes }, MONDAY)).toEqual(expected);
  });
});

describe('snapshotRate: what the sweep reads of a snapshot', () => {
  const positions = { citadel: { date: date(60) }, shaw: { date: date(120) } };

  it('equals the estimator fed the holders, the observed count and the history', () => {
    const snapshot = {
      positions,
      watch: { since: iso(30), changes: 6 },
      history: { changes: 20, days: 365 },
    };
    expect(snapshotRate(snapshot, MONDAY)).toBe(
      estimateChangeRate(
        {
          holderDates: [date(60), date(120)],
          observed: { changes: 6, days: 30 },
          history: { changes: 20, days: 365 },
        },
        MONDAY,
      ),
    );
  });

  it('rises with each poll that found events, and a busy history outweighs quiet holders', () => {
    const rate = (changes: number) => snapshotRate({ positions, watch: { since: iso(30), changes } }, MONDAY);
    expect(rate(1)).toBeGreaterThan(rate(0));
    expect(rate(10)).toBeGreaterThan(3 * rate(1));
    const quiet = snapshotRate({ positions, history: { changes: 2, days: 365 } }, MONDAY);
    const busy = snapshotRate({ positions, history: { changes: 200, days: 365 } }, MONDAY);
    expect(busy).toBeGreaterThan(10 * quiet);
  });

  it('reads a snapshot written before the record by its holders alone', () => {
    expect(snapshotRate({ positions }, MONDAY)).toBe(
      estimateChangeRate({ holderDates: [date(60), date(120)] }, MONDAY),
    );
  });
});
