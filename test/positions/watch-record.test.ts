import { describe, expect, it } from 'vitest';
import { diffPositions } from '../../src/positions/diff.js';
import { snapshotSchema } from '../../src/positions/schemas.js';
import type { Snapshot } from '../../src/positions/types.js';
import { held, input, NOW, row, snapshotOf } from './fixtures.js';

const SINCE = '2024-05-01T08:00:00.000Z';
const HISTORY = { changes: 12, days: 365, at: SINCE };

/** A previous snapshot holding Citadel at 1%, watched since SINCE with `changes` polls that found events. */
const watched = (changes: number, extra: Partial<Snapshot> = {}): Snapshot => ({
  ...snapshotOf([held('Citadel', 1)]),
  watch: { since: SINCE, changes },
  ...extra,
});

describe('the watch record the diff writes into the next snapshot', () => {
  it.each<{
    name: string;
    previous: Snapshot | null;
    rows: ReturnType<typeof row>[];
    watch: Snapshot['watch'];
  }>([
    {
      name: 'a first snapshot starts the count at its own poll',
      previous: null,
      rows: [row('Citadel', 1)],
      watch: { since: NOW.toISOString(), changes: 0 },
    },
    {
      name: 'a poll with events counts one change, however many events',
      previous: watched(3),
      rows: [row('Citadel', 1.5), row('Marshall Wace', 0.8)],
      watch: { since: SINCE, changes: 4 },
    },
    {
      name: 'a poll without events counts nothing',
      previous: watched(3),
      rows: [row('Citadel', 1)],
      watch: { since: SINCE, changes: 3 },
    },
    {
      name: 'a snapshot written before the record is counted from its own poll',
      previous: snapshotOf([held('Citadel', 1)], '2024-06-02T10:00:00.000Z'),
      rows: [row('Citadel', 0.7)],
      watch: { since: '2024-06-02T10:00:00.000Z', changes: 1 },
    },
  ])('$name', ({ previous, rows, watch }) => {
    expect(diffPositions(input({ previous, rows })).next.watch).toEqual(watch);
  });

  it('a first sight told as alerts (onFirstSeen: alert) is not a change: its events are the holders', () => {
    const result = diffPositions(input({ previous: null, rows: [row('Citadel', 1)], onFirstSeen: 'alert' }));
    expect(result.events).toHaveLength(1);
    expect(result.next.watch).toEqual({ since: NOW.toISOString(), changes: 0 });
  });

  it('carries the history summary over, with or without events, and never makes one up', () => {
    const quiet = diffPositions(
      input({ previous: watched(0, { history: HISTORY }), rows: [row('Citadel', 1)] }),
    );
    const moved = diffPositions(input({ previous: watched(0, { history: HISTORY }), rows: [] }));
    expect([quiet.next.history, moved.next.history]).toEqual([HISTORY, HISTORY]);
    expect(diffPositions(input({ previous: watched(0), rows: [] })).next).not.toHaveProperty('history');
  });
});

describe('snapshotSchema: the watch record and history summary', () => {
  const stored = (extra: Record<string, unknown>) =>
    JSON.parse(JSON.stringify({ ...snapshotOf([]), ...extra }));

  it.each<{ name: string; extra: Record<string, unknown>; ok: boolean }>([
    { name: 'a snapshot written before either was kept', extra: {}, ok: true },
    { name: 'both present', extra: { watch: { since: SINCE, changes: 2 }, history: HISTORY }, ok: true },
    { name: 'a negative count', extra: { watch: { since: SINCE, changes: -1 } }, ok: false },
    { name: 'a fractional count', extra: { watch: { since: SINCE, changes: 1.5 } }, ok: false },
    { name: 'a history without its days', extra: { history: { changes: 1, at: SINCE } }, ok: false },
  ])('$name: parses = $ok', ({ extra, ok }) => {
    const parsed = snapshotSchema.safeParse(stored(extra));
    expect(parsed.success).toBe(ok);
    if (ok) expect(parsed.data).toEqual(stored(extra));
  });
});
