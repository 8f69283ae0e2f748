import { describe, expect, it } from 'vitest';
import { historyFits, historySummary, withFinals } from '../../src/jobs/issuer-history.js';
import { diffPositions } from '../../src/positions/diff.js';
import type { Snapshot } from '../../src/positions/types.js';
import { held, input, row, snapshotOf } from '../positions/fixtures.js';

const AT = new Date('2024-06-03T10:00:00.000Z');
const WATCHED_SINCE = '2024-05-20T10:00:00.000Z';

/** A status=all answer's rows, as far as the summary reads them. */
const history = (...dates: string[]) => ({ data: dates.map((date) => ({ date })) });

describe('historySummary: what the next snapshot keeps of a status=all history', () => {
  const next = (extra: Partial<Snapshot> = {}): Snapshot => ({
    ...snapshotOf([]),
    watch: { since: WATCHED_SINCE, changes: 2 },
    ...extra,
  });

  it.each<{ name: string; snapshot: Snapshot; fetched: ReturnType<typeof history> | null; summary: unknown }>(
    [
      { name: 'nothing fetched, none kept: none', snapshot: next(), fetched: null, summary: undefined },
      {
        name: 'fetched: distinct days up to the day watching began (later ones are for the watch record)',
        snapshot: next(),
        fetched: history('2024-05-02', '2024-05-02', '2024-03-01', '2024-05-28'),
        summary: { changes: 2, days: 365, at: AT.toISOString() },
      },
      {
        name: 'one kept: never summed up again, whatever was fetched (as for the closes of a later poll)',
        snapshot: next({ history: { changes: 9, days: 365, at: '2024-01-01T00:00:00.000Z' } }),
        fetched: history('2024-05-02'),
        summary: { changes: 9, days: 365, at: '2024-01-01T00:00:00.000Z' },
      },
      {
        name: 'no watch record: as of now',
        snapshot: { ...snapshotOf([]) },
        fetched: history('2024-05-28'),
        summary: { changes: 1, days: 365, at: AT.toISOString() },
      },
    ],
  )('$name', ({ snapshot, fetched, summary }) => {
    expect(historySummary(snapshot, fetched, AT)).toEqual(summary);
  });
});

describe('withFinals: the last disclosure of a holder that closed', () => {
  const { events } = diffPositions(
    input({ previous: snapshotOf([held('Citadel', 0.8, '2024-05-01'), held('Marshall Wace', 1)]), rows: [] }),
  );
  const rows = [
    row('Citadel', 0.8, '2024-05-01'),
    row('Citadel', 0.42, '2024-05-30'),
    row('CITADEL', 0.3, '2024-04-01'),
  ];

  it('adds the newest value on or after the closed position, for holders the history has', () => {
    const done = withFinals(events, { data: rows });
    expect(done.map((e) => [e.holderKey, e.final])).toEqual([
      ['citadel', { value: 0.42, date: '2024-05-30' }],
      ['marshallwace', undefined],
    ]);
  });

  it('leaves the events as they are without a history', () => {
    expect(withFinals(events, null)).toBe(events);
  });
});

describe('historyFits', () => {
  const day = { reserve: 50, dayMs: 86_400_000 };
  it("leaves the day's gate checks their tokens, not only a whole sweep", () => {
    // 200 issuers at 00:00 with 720 checks a day planned: a whole sweep fits (900 > 200), the day's
    // checks too only without history requests. Before, the guard counted the sweep alone.
    const midnight = { ...day, dayLeft: 950, watched: 200, gateChecksPerDay: 720, untilDayEndMs: 86_400_000 };
    expect(historyFits(midnight)).toBe(false);
    // In the evening, with a tenth of the day's checks left, there is room.
    expect(historyFits({ ...midnight, dayLeft: 600, untilDayEndMs: 8_640_000 })).toBe(true);
    expect(historyFits({ ...midnight, gateChecksPerDay: 0 })).toBe(true);
  });
});
