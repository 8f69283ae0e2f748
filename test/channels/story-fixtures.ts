import type { Message } from '../../src/channels/types.js';
import type { PositionEvent } from '../../src/positions/types.js';

// The threshold stories and the sequences of one holder that every people channel (Slack, Teams,
// e-mail) is held to: one set of facts, so the channels' tests cannot drift apart.

/** The issuer of every story fixture. */
export const ACME = { id: 'ISS-1', name: 'Acme plc' };

/** An event of Acme plc whose issuer total moves by its own change from 3.40% unless given. */
export function event(
  fields: Partial<PositionEvent> & Pick<PositionEvent, 'kind' | 'holder'>,
): PositionEvent {
  const delta = fields.delta ?? 0;
  return {
    id: `ev-${fields.holder}-${fields.detectedAt ?? ''}`,
    issuer: ACME,
    holderKey: fields.holder.toLowerCase(),
    previous: null,
    current: null,
    delta,
    thresholdsCrossed: [],
    issuerTotal: { before: 3.4, after: Math.round((3.4 + delta) * 10_000) / 10_000 },
    detectedAt: '2024-05-02T07:31:00.000Z',
    ...fields,
  };
}

/** An events message of Acme plc. */
export const eventsOf = (...events: PositionEvent[]): Message => ({ type: 'events', issuer: ACME, events });

/** A new position over 0.5%. */
export const opened = event({
  kind: 'opened',
  holder: 'Alpha Capital LLP',
  current: { value: 0.62, date: '2024-05-02' },
  delta: 0.62,
  thresholdsCrossed: [0.5],
});
/** A raise crossing two thresholds. */
export const raised = event({
  kind: 'increased',
  holder: 'Beta Partners',
  previous: { value: 0.95, date: '2024-04-30' },
  current: { value: 2.1, date: '2024-05-02' },
  delta: 1.15,
  thresholdsCrossed: [1, 2],
});
/** A cut crossing nothing. */
export const cut = event({
  kind: 'decreased',
  holder: 'Gamma Fund',
  previous: { value: 1.3, date: '2024-04-29' },
  current: { value: 1.25, date: '2024-05-02' },
  delta: -0.05,
});
/** A fall below 0.5% by a cut the register lists. */
export const fellBelowListed = event({
  kind: 'decreased',
  holder: 'Delta AM',
  previous: { value: 0.56, date: '2024-04-28' },
  current: { value: 0.47, date: '2024-05-02' },
  delta: -0.09,
  thresholdsCrossed: [0.5],
  story: { kind: 'fell-below' },
});
/** A fall below 0.5% by leaving the list; with or without its last disclosure below. */
export const closedBase: Pick<
  PositionEvent,
  'kind' | 'holder' | 'previous' | 'delta' | 'thresholdsCrossed' | 'story'
> = {
  kind: 'closed',
  holder: 'Delta AM',
  previous: { value: 0.55, date: '2024-04-28' },
  delta: -0.55,
  thresholdsCrossed: [0.5],
  story: { kind: 'fell-below' },
};
/** The fall below by leaving the list, its last disclosure (0.45%) known. */
export const closedFinal = event({ ...closedBase, final: { value: 0.45, date: '2024-05-02' } });
/** The fall below by leaving the list, its last disclosure unknown. */
export const closedNoFinal = event(closedBase);
/** A fall below confirmed: the position, told as fallen below before, leaves the register. */
export const confirmed = event({
  kind: 'closed',
  holder: 'Delta AM',
  previous: { value: 0.47, date: '2024-05-02' },
  delta: -0.47,
  story: { kind: 'below-confirmed', fellBelowOn: '2024-05-02' },
});
/** A return above 0.5% twelve days after the fall below. */
export const backAbove = event({
  kind: 'opened',
  holder: 'Delta AM',
  current: { value: 0.52, date: '2024-05-14' },
  delta: 0.52,
  thresholdsCrossed: [0.5],
  story: { kind: 'back-above', fellBelowOn: '2024-05-02', daysBelow: 12 },
});

const FLAP_HOLD = { since: '2024-05-02T07:32:00.000Z', until: '2024-05-02T07:47:00.000Z' };
/** A holder crossing 0.5% three times in three polls: 0.52% → 0.47% → 0.51% → off the list (0.48%). */
export const flap: PositionEvent[] = [
  event({
    kind: 'decreased',
    holder: 'Flap Cap',
    previous: { value: 0.52, date: '2024-05-01' },
    current: { value: 0.47, date: '2024-05-02' },
    delta: -0.05,
    thresholdsCrossed: [0.5],
    story: { kind: 'fell-below' },
    detectedAt: '2024-05-02T07:31:00.000Z',
    issuerTotal: { before: 3.4, after: 3.35 },
  }),
  event({
    kind: 'increased',
    holder: 'Flap Cap',
    previous: { value: 0.47, date: '2024-05-02' },
    current: { value: 0.51, date: '2024-05-03' },
    delta: 0.04,
    thresholdsCrossed: [0.5],
    story: { kind: 'back-above', fellBelowOn: '2024-05-02', daysBelow: 1 },
    hold: FLAP_HOLD,
    detectedAt: '2024-05-02T07:32:00.000Z',
    issuerTotal: { before: 3.35, after: 3.39 },
  }),
  event({
    kind: 'closed',
    holder: 'Flap Cap',
    previous: { value: 0.51, date: '2024-05-03' },
    final: { value: 0.48, date: '2024-05-03' },
    delta: -0.51,
    thresholdsCrossed: [0.5],
    story: { kind: 'fell-below' },
    hold: FLAP_HOLD,
    detectedAt: '2024-05-02T07:33:00.000Z',
    issuerTotal: { before: 3.39, after: 2.88 },
  }),
];

/** Holder i raising its short in `issuer` by 0.30 pp, in a poll whose issuer total moves by `total`. */
export function holderRaise(i: number, issuer = ACME, total = { before: 1.2, after: 1.5 }): PositionEvent {
  return {
    id: `ev-${issuer.id}-${i}`,
    kind: 'increased',
    issuer,
    holderKey: `holder${i}`,
    holder: `Holder ${i} Capital Management LLP`,
    previous: { value: 0.8, date: '2024-05-01' },
    current: { value: 1.1, date: '2024-05-02' },
    delta: 0.3,
    thresholdsCrossed: [1],
    issuerTotal: total,
    detectedAt: '2024-05-02T07:30:00Z',
  };
}

/** Holders `from` … `from + count - 1` raising in one poll: the issuer total moves by all of them. */
export function raises(count: number, issuer = ACME, from = 0): PositionEvent[] {
  const total = { before: 1.2, after: Math.round((1.2 + 0.3 * count) * 10_000) / 10_000 };
  return Array.from({ length: count }, (_, i) => holderRaise(from + i, issuer, total));
}
