import { describe, expect, it } from 'vitest';
import { collapseRows, diffPositions } from '../../src/positions/diff.js';
import { eventId, snapshotOccurrence } from '../../src/positions/event-id.js';
import type { HeldPosition, PositionEvent } from '../../src/positions/types.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';
import { held, ISSUER, input, NOW, row, snapshotOf } from './fixtures.js';

/** One event as a line, so a table states every rule's outcome at a glance. */
function line(event: PositionEvent): string {
  const from = event.previous ? `${event.previous.value}@${event.previous.date}` : '-';
  const to = event.current ? `${event.current.value}@${event.current.date}` : '-';
  return `${event.kind} ${event.holderKey} "${event.holder}" ${from} -> ${to} (${event.delta})`;
}

interface RuleCase {
  name: string;
  previous: HeldPosition[];
  rows: IssuerPosition[];
  events: string[];
  next: Record<string, HeldPosition>;
}

const SHAW_1 = 'D. E. Shaw & Co., L.P.';
const SHAW_2 = 'D.E. Shaw & Co., L.P.';
const SHAW_3 = 'D.E. SHAW & CO LP';

const ruleCases: RuleCase[] = [
  {
    name: 'spelling variant only: no event, snapshot takes the latest display name',
    previous: [held(SHAW_1, 1.2, '2024-05-01')],
    rows: [row(SHAW_3, 1.2, '2024-05-01')],
    events: [],
    next: { deshawcolp: held(SHAW_3, 1.2, '2024-05-01') },
  },
  {
    name: 'three spellings in one list are one holder; the later date wins',
    previous: [],
    rows: [row(SHAW_1, 0.9, '2024-05-01'), row(SHAW_3, 1.1, '2024-05-20'), row(SHAW_2, 1.0, '2024-05-10')],
    events: [`opened deshawcolp "${SHAW_3}" - -> 1.1@2024-05-20 (1.1)`],
    next: { deshawcolp: held(SHAW_3, 1.1, '2024-05-20') },
  },
  {
    name: 'two rows of one holder: the later date wins even with a lower value',
    previous: [held('Citadel', 2, '2024-05-01')],
    rows: [row('Citadel', 3, '2024-05-02'), row('Citadel', 1.5, '2024-05-30')],
    events: ['decreased citadel "Citadel" 2@2024-05-01 -> 1.5@2024-05-30 (-0.5)'],
    next: { citadel: held('Citadel', 1.5, '2024-05-30') },
  },
  {
    name: 'two rows of one holder on one date: the higher value wins',
    previous: [held('Citadel', 2, '2024-05-01')],
    rows: [row('Citadel', 2.4, '2024-05-30'), row('CITADEL', 2.6, '2024-05-30')],
    events: ['increased citadel "CITADEL" 2@2024-05-01 -> 2.6@2024-05-30 (0.6)'],
    next: { citadel: held('CITADEL', 2.6, '2024-05-30') },
  },
  {
    name: 'date-only re-disclosure: no event, the snapshot takes the new date',
    previous: [held('Citadel', 0.8, '2024-05-01')],
    rows: [row('Citadel', 0.8, '2024-06-01')],
    events: [],
    next: { citadel: held('Citadel', 0.8, '2024-06-01') },
  },
  {
    name: 'float noise 19.739999999999998 vs 19.74 is no event',
    previous: [held('Citadel', 19.74, '2024-05-01')],
    rows: [row('Citadel', 19.739999999999998, '2024-05-01')],
    events: [],
    next: { citadel: held('Citadel', 19.74, '2024-05-01') },
  },
  {
    name: 'a difference in the 5th decimal only is no event; the stored value is rounded',
    previous: [held('Citadel', 1.2345, '2024-05-01')],
    rows: [row('Citadel', 1.23449, '2024-05-01')],
    events: [],
    next: { citadel: held('Citadel', 1.2345, '2024-05-01') },
  },
  {
    name: 'a difference in the 4th decimal is an event',
    previous: [held('Citadel', 1.2345, '2024-05-01')],
    rows: [row('Citadel', 1.2346, '2024-05-02')],
    events: ['increased citadel "Citadel" 1.2345@2024-05-01 -> 1.2346@2024-05-02 (0.0001)'],
    next: { citadel: held('Citadel', 1.2346, '2024-05-02') },
  },
  {
    name: 'opened, increased, decreased and closed in one poll, sorted by holder key',
    previous: [held('Zeta Fund', 1, '2024-05-01'), held('Beta Fund', 1, '2024-05-01'), held('Gone LLC', 0.7)],
    rows: [row('Zeta Fund', 0.9), row('Beta Fund', 1.3), row('Alpha Capital', 0.5)],
    events: [
      'opened alphacapital "Alpha Capital" - -> 0.5@2024-06-01 (0.5)',
      'increased betafund "Beta Fund" 1@2024-05-01 -> 1.3@2024-06-01 (0.3)',
      'closed gonellc "Gone LLC" 0.7@2024-05-01 -> - (-0.7)',
      'decreased zetafund "Zeta Fund" 1@2024-05-01 -> 0.9@2024-06-01 (-0.1)',
    ],
    next: {
      alphacapital: held('Alpha Capital', 0.5, '2024-06-01'),
      betafund: held('Beta Fund', 1.3, '2024-06-01'),
      zetafund: held('Zeta Fund', 0.9, '2024-06-01'),
    },
  },
  {
    name: 'an active value under 0.5 is a decreased',
    previous: [held('Citadel', 0.61, '2024-05-01')],
    rows: [row('Citadel', 0.45, '2024-06-01')],
    events: ['decreased citadel "Citadel" 0.61@2024-05-01 -> 0.45@2024-06-01 (-0.16)'],
    next: { citadel: held('Citadel', 0.45, '2024-06-01') },
  },
  {
    name: 'the later disappearance of a value under 0.5 is the closed',
    previous: [held('Citadel', 0.45, '2024-06-01')],
    rows: [],
    events: ['closed citadel "Citadel" 0.45@2024-06-01 -> - (-0.45)'],
    next: {},
  },
  {
    name: 'closed carries the previous display name; opened and increased the new one',
    previous: [held(SHAW_1, 1, '2024-05-01'), held('Old Name Ltd', 2)],
    rows: [row(SHAW_2, 1.5)],
    events: [
      `increased deshawcolp "${SHAW_2}" 1@2024-05-01 -> 1.5@2024-06-01 (0.5)`,
      'closed oldnameltd "Old Name Ltd" 2@2024-05-01 -> - (-2)',
    ],
    next: { deshawcolp: held(SHAW_2, 1.5, '2024-06-01') },
  },
  {
    name: 'empty but valid data closes every previous position',
    previous: [held('A', 1), held('B', 0.5)],
    rows: [],
    events: ['closed a "A" 1@2024-05-01 -> - (-1)', 'closed b "B" 0.5@2024-05-01 -> - (-0.5)'],
    next: {},
  },
  {
    name: 'holders named like Object.prototype members are ordinary holders',
    previous: [held('Constructor', 1)],
    rows: [row('constructor', 1, '2024-05-01'), row('To String', 0.6), row('Has Own Property', 0.7)],
    events: [
      'opened hasownproperty "Has Own Property" - -> 0.7@2024-06-01 (0.7)',
      'opened tostring "To String" - -> 0.6@2024-06-01 (0.6)',
    ],
    next: {
      constructor: held('constructor', 1, '2024-05-01'),
      hasownproperty: held('Has Own Property', 0.7, '2024-06-01'),
      tostring: held('To String', 0.6, '2024-06-01'),
    },
  },
];

describe('diffPositions rules', () => {
  it.each(ruleCases)('$name', ({ previous, rows, events, next }) => {
    const result = diffPositions(input({ previous: snapshotOf(previous), rows }));
    expect(result.events.map(line)).toEqual(events);
    expect(result.next.positions).toEqual(next);
    expect(result.baseline).toBe(false);
  });
});

describe('thresholdsCrossed', () => {
  const cases: { name: string; previous: HeldPosition[]; rows: IssuerPosition[]; crossed: number[] }[] = [
    { name: 'opened at exactly 0.5 crosses 0.5', previous: [], rows: [row('A', 0.5)], crossed: [0.5] },
    { name: 'opened under 0.5 crosses nothing', previous: [], rows: [row('A', 0.49)], crossed: [] },
    { name: 'up through several', previous: [held('A', 0.6)], rows: [row('A', 2.1)], crossed: [1, 2] },
    { name: 'down through several', previous: [held('A', 2.1)], rows: [row('A', 0.6)], crossed: [1, 2] },
    { name: 'up from exactly a threshold', previous: [held('A', 1)], rows: [row('A', 2)], crossed: [2] },
    { name: 'down to exactly a threshold', previous: [held('A', 2)], rows: [row('A', 1)], crossed: [2] },
    { name: 'down under 0.5', previous: [held('A', 0.6)], rows: [row('A', 0.4)], crossed: [0.5] },
    { name: 'closed from 0.5 crosses 0.5', previous: [held('A', 0.5)], rows: [], crossed: [0.5] },
    { name: 'closed from under 0.5 crosses nothing', previous: [held('A', 0.45)], rows: [], crossed: [] },
    { name: 'closed from 5.5 crosses all', previous: [held('A', 5.5)], rows: [], crossed: [0.5, 1, 2, 5] },
  ];
  it.each(cases)('$name', ({ previous, rows, crossed }) => {
    // Unsorted with a duplicate: the output is still sorted and unique.
    const thresholds = [5, 1, 0.5, 2, 1];
    const [event, ...rest] = diffPositions(
      input({ previous: snapshotOf(previous), rows, thresholds }),
    ).events;
    expect(rest).toEqual([]);
    expect(event?.thresholdsCrossed).toEqual(crossed);
  });
});

describe('issuerTotal', () => {
  const cases = [
    {
      name: 'sums of rounded values before and after, without float noise',
      previous: [held('A', 1.1), held('B', 0.2)],
      rows: [row('A', 1.3), row('C', 0.50001)],
      total: { before: 1.3, after: 1.8 },
    },
    {
      name: 'after is 0 when everything closes',
      previous: [held('A', 0.7)],
      rows: [],
      total: { before: 0.7, after: 0 },
    },
    {
      name: 'before is 0 when nothing was held',
      previous: [],
      rows: [row('A', 0.7)],
      total: { before: 0, after: 0.7 },
    },
  ];
  it.each(cases)('$name', ({ previous, rows, total }) => {
    const { events } = diffPositions(input({ previous: snapshotOf(previous), rows }));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.issuerTotal).toEqual(total);
  });
});

describe('first observation', () => {
  const rows = [row('B', 1), row('A', 0.4)];
  it.each([
    {
      name: 'baseline: no events, baseline true',
      onFirstSeen: 'baseline' as const,
      kinds: [],
      baseline: true,
    },
    {
      name: 'alert: every position opened',
      onFirstSeen: 'alert' as const,
      kinds: ['opened', 'opened'],
      baseline: false,
    },
  ])('$name', ({ onFirstSeen, kinds, baseline }) => {
    const result = diffPositions(input({ previous: null, rows, onFirstSeen }));
    expect(result.events.map((e) => e.kind)).toEqual(kinds);
    expect(result.baseline).toBe(baseline);
    expect(result.next.positions).toEqual({ a: held('A', 0.4, '2024-06-01'), b: held('B', 1, '2024-06-01') });
    for (const event of result.events) expect(event.issuerTotal).toEqual({ before: 0, after: 1.4 });
  });
});

describe('event and snapshot fields', () => {
  it('fills every field of an event and the next snapshot', () => {
    const previous = snapshotOf([held('Citadel', 0.8, '2024-05-01')]);
    const result = diffPositions(
      input({
        previous,
        rows: [row('Citadel', 1.25, '2024-06-01')],
        issuer: { id: ISSUER.id, name: 'Acme Corp plc' },
      }),
    );
    const current = { value: 1.25, date: '2024-06-01' };
    const prior = { value: 0.8, date: '2024-05-01' };
    expect(result.events).toEqual([
      {
        id: eventId({
          issuerId: 'ISS-1',
          holderKey: 'citadel',
          from: snapshotOccurrence(previous),
          kind: 'increased',
          previous: prior,
          current,
        }),
        kind: 'increased',
        issuer: { id: 'ISS-1', name: 'Acme Corp plc' },
        holderKey: 'citadel',
        holder: 'Citadel',
        previous: prior,
        current,
        delta: 0.45,
        thresholdsCrossed: [1],
        issuerTotal: { before: 0.8, after: 1.25 },
        detectedAt: NOW.toISOString(),
      },
    ]);
    expect(result.next).toEqual({
      issuerId: 'ISS-1',
      issuerName: 'Acme Corp plc',
      positions: { citadel: held('Citadel', 1.25, '2024-06-01') },
      lastUpdated: '2024-06-03T09:00:00Z',
      polledAt: NOW.toISOString(),
      generation: 1,
      // A snapshot written before the watch record: counted from its own poll on.
      watch: { since: previous.polledAt, changes: 1 },
    });
  });

  it('replaying the same poll yields the same events and ids', () => {
    const same = input({ previous: snapshotOf([held('A', 1)]), rows: [row('A', 2), row('B', 1)] });
    expect(diffPositions(same).events).toEqual(diffPositions(structuredClone(same)).events);
  });

  it('a transition that repeats later is a new event: ids name the occurrence, not only the values (issue 20, finding 1)', () => {
    // Citadel's row is missing from one answer, comes back with the same value and date, then really closes.
    const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
    const first = diffPositions(input({ previous: null, rows: [row('Citadel', 0.8)], onFirstSeen: 'alert' }));
    const gone = diffPositions(input({ previous: first.next, rows: [], now: at(1) }));
    const back = diffPositions(input({ previous: gone.next, rows: [row('Citadel', 0.8)], now: at(2) }));
    const closed = diffPositions(input({ previous: back.next, rows: [], now: at(3) }));
    expect([first, gone, back, closed].map((d) => d.events.map((e) => e.kind))).toEqual([
      ['opened'],
      ['closed'],
      ['opened'],
      ['closed'],
    ]);
    const ids = [first, gone, back, closed].map((d) => d.events[0]?.id);
    expect(new Set(ids).size).toBe(4);
    expect([first, gone, back, closed].map((d) => d.next.generation)).toEqual([1, 2, 3, 4]);
  });

  it('a replay against the same snapshot keeps its ids even at another instant; newer data gets new ones', () => {
    const previous = snapshotOf([held('A', 1)]);
    const once = diffPositions(input({ previous, rows: [row('A', 2)] }));
    const later = diffPositions(
      input({ previous, rows: [row('A', 2)], now: new Date(NOW.getTime() + 5_000) }),
    );
    const newer = diffPositions(input({ previous, rows: [row('A', 2.5)] }));
    expect(later.events[0]?.id).toBe(once.events[0]?.id);
    expect(newer.events[0]?.id).not.toBe(once.events[0]?.id);
  });

  it('an unchanged register yields no events', () => {
    const first = diffPositions(input({ previous: null, rows: [row('A', 1), row('B', 0.7)] }));
    const again = diffPositions(input({ previous: first.next, rows: [row('B', 0.7), row('A', 1)] }));
    expect(again.events).toEqual([]);
  });
});

describe('collapseRows', () => {
  const cases = [
    {
      name: 'same date and value: the smaller name wins whatever the order',
      rows: [row('CITADEL', 1), row('Citadel', 1)],
      expected: { citadel: held('CITADEL', 1, '2024-06-01') },
    },
    {
      name: 'values are stored rounded to 4 decimals',
      rows: [row('A', 0.123456)],
      expected: { a: held('A', 0.1235, '2024-06-01') },
    },
    { name: 'no rows: no positions', rows: [], expected: {} },
  ];
  it.each(cases)('$name', ({ rows, expected }) => {
    expect(collapseRows(rows)).toEqual(expected);
    expect(collapseRows([...rows].reverse())).toEqual(expected);
  });
});
