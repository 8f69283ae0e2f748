import { describe, expect, it } from 'vitest';
import { diffPositions } from '../../src/positions/diff.js';
import { type AlertWindows, tellStories } from '../../src/positions/threshold-story.js';
import type { HolderMemory, PositionEvent, Snapshot } from '../../src/positions/types.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';

const ISSUER = { id: 'ISS-1', name: 'Acme plc' };
const WINDOWS: AlertWindows = { reopenWindowMs: 30 * 86_400_000, flapWindowMs: 15 * 60_000 };

function row(holder: string, value: number, date: string): IssuerPosition {
  return { position_holder: holder, value, date } as IssuerPosition;
}

/**
 * One poll as the daemon runs it: the pure diff against the previous snapshot, then the story told
 * from the snapshot's memory; returns the events and the snapshot to commit (with its memory).
 */
function poll(previous: Snapshot | null, rows: IssuerPosition[], at: string, windows = WINDOWS) {
  const now = new Date(at);
  const diff = diffPositions({
    previous,
    issuer: ISSUER,
    rows,
    lastUpdated: at,
    now,
    thresholds: [0.5, 1],
    onFirstSeen: 'alert',
  });
  const told = tellStories(diff.events, previous?.memory ?? {}, now, windows);
  const next: Snapshot = {
    ...diff.next,
    ...(Object.keys(told.memory).length > 0 ? { memory: told.memory } : {}),
  };
  return { events: told.events, next };
}

/** Runs polls in order, each against the snapshot the one before committed. */
function run(steps: Array<{ at: string; rows: IssuerPosition[] }>, windows = WINDOWS) {
  let snapshot: Snapshot | null = null;
  const events: PositionEvent[][] = [];
  for (const step of steps) {
    const result = poll(snapshot, step.rows, step.at, windows);
    events.push(result.events);
    snapshot = result.next;
  }
  return { events, snapshot };
}

const only = (events: PositionEvent[] | undefined): PositionEvent => {
  expect(events).toHaveLength(1);
  return events?.[0] as PositionEvent;
};

describe('the threshold story', () => {
  it('a cut under 0.5% is told once as a fall below; its later disappearance confirms it', () => {
    const { events, snapshot } = run([
      { at: '2026-01-05T08:00:00.000Z', rows: [row('Marlin', 0.56, '2026-01-02')] },
      { at: '2026-01-09T16:00:00.000Z', rows: [row('Marlin', 0.47, '2026-01-09')] },
      { at: '2026-01-12T16:00:00.000Z', rows: [] },
    ]);
    expect(only(events[1]).story).toEqual({ kind: 'fell-below' });
    expect(only(events[2])).toMatchObject({
      kind: 'closed',
      story: { kind: 'below-confirmed', fellBelowOn: '2026-01-09' },
    });
    // Remembered for the reopen window, keyed by holder.
    expect(snapshot?.memory?.marlin?.below).toEqual({ date: '2026-01-09', at: '2026-01-09T16:00:00.000Z' });
  });

  it('a position gone from the list while above 0.5% fell below (no sub-threshold row seen)', () => {
    const { events } = run([
      { at: '2026-01-05T08:00:00.000Z', rows: [row('Marlin', 0.62, '2026-01-02')] },
      { at: '2026-01-06T16:00:00.000Z', rows: [] },
    ]);
    expect(only(events[1])).toMatchObject({ kind: 'closed', story: { kind: 'fell-below' } });
  });

  it('a reopening within the window says after how many days (disclosure dates); after it, a new opening', () => {
    const steps = [
      { at: '2026-01-05T08:00:00.000Z', rows: [row('Marlin', 0.56, '2026-01-02')] },
      { at: '2026-01-09T16:00:00.000Z', rows: [row('Marlin', 0.47, '2026-01-09')] },
      { at: '2026-01-12T16:00:00.000Z', rows: [] },
      { at: '2026-01-21T16:00:00.000Z', rows: [row('Marlin', 0.52, '2026-01-21')] },
    ];
    const within = run(steps);
    expect(only(within.events[3])).toMatchObject({
      kind: 'opened',
      story: { kind: 'back-above', fellBelowOn: '2026-01-09', daysBelow: 12 },
    });
    // The return clears the memory of the fall.
    expect(within.snapshot?.memory?.marlin?.below).toBeUndefined();

    const later = run(steps, { ...WINDOWS, reopenWindowMs: 5 * 86_400_000 });
    expect(only(later.events[3]).story).toBeUndefined();
  });

  it('a listed sub-threshold position raised back above 0.5% is back above too', () => {
    const { events } = run([
      { at: '2026-01-05T08:00:00.000Z', rows: [row('Marlin', 0.56, '2026-01-02')] },
      { at: '2026-01-09T16:00:00.000Z', rows: [row('Marlin', 0.47, '2026-01-09')] },
      { at: '2026-01-10T16:00:00.000Z', rows: [row('Marlin', 0.51, '2026-01-10')] },
    ]);
    expect(only(events[2])).toMatchObject({
      kind: 'increased',
      story: { kind: 'back-above', daysBelow: 1 },
    });
  });

  it('a move that stays on one side, and a fresh opening, tell no story', () => {
    const { events } = run([
      { at: '2026-01-05T08:00:00.000Z', rows: [row('Marlin', 0.56, '2026-01-02')] },
      {
        at: '2026-01-06T08:00:00.000Z',
        rows: [row('Marlin', 0.86, '2026-01-06'), row('Orca', 0.7, '2026-01-06')],
      },
    ]);
    expect(events[1]?.map((e) => [e.holder, e.kind, e.story])).toEqual([
      ['Marlin', 'increased', undefined],
      ['Orca', 'opened', undefined],
    ]);
  });
});

describe('flaps', () => {
  const flapping = (minutes: number[], values: number[]) =>
    minutes.map((m, i) => ({
      at: new Date(Date.UTC(2026, 0, 9, 16, m)).toISOString(),
      rows: [row('Marlin', values[i] ?? 0, '2026-01-09'), row('Orca', 1 + i / 100, '2026-01-09')],
    }));

  it('the first crossing goes at once; a second within the window starts a hold every later change joins', () => {
    const { events } = run(flapping([-60, 1, 2, 3, 4, 5, 30], [0.56, 0.47, 0.52, 0.48, 0.53, 0.49, 0.51]));
    const marlin = events.map((poll) => poll.find((e) => e.holderKey === 'marlin'));
    // Opened an hour before (a crossing up, long past): the fall at 16:01 is a first crossing.
    expect(marlin[1]?.hold).toBeUndefined();
    const hold = { since: '2026-01-09T16:02:00.000Z', until: '2026-01-09T16:17:00.000Z' };
    expect(marlin.slice(2, 6).map((e) => e?.hold)).toEqual([hold, hold, hold, hold]);
    // At 16:30 the hold is over, but 16:30 is more than a window after the last crossing (16:05): sent at once.
    expect(marlin[6]?.hold).toBeUndefined();
    // Every change is an event: nothing is dropped, only held.
    expect(marlin.slice(1).map((e) => e?.kind)).toEqual([
      'decreased',
      'increased',
      'decreased',
      'increased',
      'decreased',
      'increased',
    ]);
    // Other holders are never held.
    expect(events.flat().filter((e) => e.holderKey === 'orca' && e.hold)).toEqual([]);
  });

  it('a flap window of 0 holds nothing', () => {
    const { events } = run(flapping([0, 1, 2, 3], [0.56, 0.47, 0.52, 0.48]), { ...WINDOWS, flapWindowMs: 0 });
    expect(events.flat().filter((e) => e.hold)).toEqual([]);
  });

  it('a replay of the same poll against the same snapshot tells the same story (ids and holds)', () => {
    const first = run(flapping([-60, 1], [0.56, 0.47]));
    const previous = first.snapshot;
    const at = '2026-01-09T16:02:00.000Z';
    const rows = [row('Marlin', 0.52, '2026-01-09'), row('Orca', 1.02, '2026-01-09')];
    expect(poll(previous, rows, at)).toEqual(poll(previous, rows, at));
  });

  it('memory is pruned: nothing is kept once no later event can use it', () => {
    const memory: Record<string, HolderMemory> = {
      old: {
        below: { date: '2025-01-01', at: '2025-01-01T00:00:00.000Z' },
        lastCrossing: '2025-01-01T00:00:00.000Z',
      },
      proto: { hold: { since: '2026-01-09T15:00:00.000Z', until: '2026-01-09T15:15:00.000Z' } },
    };
    expect(tellStories([], memory, new Date('2026-01-09T16:00:00.000Z'), WINDOWS).memory).toEqual({});
  });
});
