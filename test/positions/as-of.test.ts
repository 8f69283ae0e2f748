import { describe, expect, it } from 'vitest';
import { positionsAsOf } from '../../src/positions/as-of.js';
import type { PositionEvent, Snapshot } from '../../src/positions/types.js';

const DAY = 86_400_000;
const t = (day: number) => new Date(Date.UTC(2026, 10, 2) + day * DAY).toISOString();

// Now: Marshall Wace 0.74 (a revision seen on day 4), Qube 0.61 (a late filing seen on day 3).
const snapshot: Snapshot = {
  issuerId: 'afm:NL0000379121',
  issuerName: 'Randstad N.V.',
  positions: {
    marshallwacellp: { holder: 'Marshall Wace LLP', value: 0.74, date: '2025-08-13' },
    qube: { holder: 'Qube', value: 0.61, date: '2025-08-05' },
  },
  lastUpdated: null,
  polledAt: t(6),
  watch: { since: t(0), changes: 3 },
};

function event(
  holderKey: string,
  day: number,
  previous: number | null,
  current: number,
  date: string,
): PositionEvent {
  return {
    id: `${holderKey}-${day}`,
    kind: previous === null ? 'opened' : current > previous ? 'increased' : 'decreased',
    issuer: { id: 'NL0000379121', name: 'Randstad N.V.' },
    holderKey,
    holder: holderKey,
    previous: previous === null ? null : { value: previous, date: '2025-08-11' },
    current: { value: current, date },
    delta: current - (previous ?? 0),
    thresholdsCrossed: [],
    issuerTotal: { before: 0, after: 0 },
    detectedAt: t(day),
  };
}

const events = [
  event('marshallwacellp', 4, 0.78, 0.74, '2025-08-13'),
  event('qube', 3, null, 0.61, '2025-08-05'),
  event('marshallwacellp', 1, 0.7, 0.78, '2025-08-13'),
];

const shown = (atMs: number, trimmed = false) => {
  const answer = positionsAsOf({ snapshot, events, trimmed }, atMs);
  return {
    ...answer,
    positions: answer.positions.map((p) => `${p.holderKey} ${p.value} ${p.firstSeen ?? '?'}`),
  };
};

describe('positionsAsOf', () => {
  it.each([
    ['before the first read: not seen', Date.parse(t(0)) - 1, { seen: false, positions: [], complete: true }],
    [
      'at the first read: the baseline',
      Date.parse(t(0)),
      { seen: true, positions: [`marshallwacellp 0.7 ${t(0)}`], complete: true },
    ],
    [
      'after the raise',
      Date.parse(t(2)),
      { seen: true, positions: [`marshallwacellp 0.78 ${t(1)}`], complete: true },
    ],
    [
      'after the late filing, before the revision',
      Date.parse(t(3)),
      { seen: true, positions: [`marshallwacellp 0.78 ${t(1)}`, `qube 0.61 ${t(3)}`], complete: true },
    ],
    [
      'now',
      Date.parse(t(9)),
      { seen: true, positions: [`marshallwacellp 0.74 ${t(4)}`, `qube 0.61 ${t(3)}`], complete: true },
    ],
  ])('%s', (_, atMs, expected) => {
    expect(shown(atMs)).toEqual(expected);
  });

  it('says when a trimmed log may not reach back far enough', () => {
    expect(shown(Date.parse(t(0)), true).complete).toBe(false);
    expect(shown(Date.parse(t(2)), true)).toMatchObject({
      complete: true,
      positions: [`marshallwacellp 0.78 ${t(1)}`],
    });
    // A position held since before the oldest kept event has no known first sight.
    expect(
      positionsAsOf({ snapshot, events: events.slice(0, 2), trimmed: true }, Date.parse(t(9))).positions[0]
        ?.firstSeen,
    ).toBe(t(4));
  });
});
