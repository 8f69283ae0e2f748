import type { Message } from '../../src/channels/types.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { ACME, makeEvent } from '../channels/email/fixtures.js';

const BETA = { id: 'ISS-2', name: 'Pemberton Airways plc' };
const GAMMA = { id: 'ISS-3', name: 'Gamma Holdings Group Ltd' };
const LONG_HOLDER = 'Qube Research & Technologies Limited (acting as investment manager)';

const opened = makeEvent({
  kind: 'opened',
  holder: 'Citadel Advisors LLC',
  holderKey: 'citadeladvisors',
  previous: null,
  current: { value: 0.62, date: '2026-01-09' },
  delta: 0.62,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 3.4, after: 4.02 },
});
const raised = makeEvent({ thresholdsCrossed: [1] });
const cut = makeEvent({
  kind: 'decreased',
  holder: LONG_HOLDER,
  holderKey: 'qube',
  previous: { value: 11.23, date: '2026-01-08' },
  current: { value: 10.98, date: '2026-01-09' },
  delta: -0.25,
  thresholdsCrossed: [],
  issuerTotal: { before: 13.52, after: 13.27 },
});
const closed = makeEvent({
  kind: 'closed',
  holder: 'Marshall Wace LLP',
  holderKey: 'marshallwacellp',
  previous: { value: 0.56, date: '2026-01-02' },
  current: null,
  final: { value: 0.47, date: '2026-01-09' },
  delta: -0.56,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 3.4, after: 2.84 },
});

/** A fall below the threshold by a cut the register lists. */
const fellBelow = makeEvent({
  kind: 'decreased',
  holder: LONG_HOLDER,
  holderKey: 'qube',
  previous: { value: 0.56, date: '2026-01-08' },
  current: { value: 0.47, date: '2026-01-09' },
  delta: -0.09,
  thresholdsCrossed: [0.5],
  story: { kind: 'fell-below' },
  issuerTotal: { before: 3.4, after: 3.31 },
});
/** A return above the threshold twelve days after the fall below. */
const backAbove = makeEvent({
  kind: 'opened',
  holder: LONG_HOLDER,
  holderKey: 'qube',
  previous: null,
  current: { value: 0.52, date: '2026-01-21' },
  delta: 0.52,
  thresholdsCrossed: [0.5],
  story: { kind: 'back-above', fellBelowOn: '2026-01-09', daysBelow: 12 },
  issuerTotal: { before: 3.4, after: 3.92 },
  detectedAt: '2026-01-21T07:31:00.000Z',
});
const hold = { since: '2026-01-09T07:32:00.000Z', until: '2026-01-09T07:47:00.000Z' };
/** One holder crossing 0.5% three times in three polls: the longest value a row shows. */
const flap: PositionEvent[] = [
  makeEvent({
    id: 'evt-flap-1',
    kind: 'decreased',
    holder: LONG_HOLDER,
    holderKey: 'qube',
    previous: { value: 0.52, date: '2026-01-08' },
    current: { value: 0.47, date: '2026-01-09' },
    delta: -0.05,
    thresholdsCrossed: [0.5],
    story: { kind: 'fell-below' },
    issuerTotal: { before: 3.4, after: 3.35 },
    detectedAt: '2026-01-09T07:31:00.000Z',
  }),
  makeEvent({
    id: 'evt-flap-2',
    kind: 'increased',
    holder: LONG_HOLDER,
    holderKey: 'qube',
    previous: { value: 0.47, date: '2026-01-09' },
    current: { value: 0.51, date: '2026-01-10' },
    delta: 0.04,
    thresholdsCrossed: [0.5],
    story: { kind: 'back-above', fellBelowOn: '2026-01-09', daysBelow: 1 },
    hold,
    issuerTotal: { before: 3.35, after: 3.39 },
    detectedAt: '2026-01-09T07:32:00.000Z',
  }),
  makeEvent({
    id: 'evt-flap-3',
    kind: 'closed',
    holder: LONG_HOLDER,
    holderKey: 'qube',
    previous: { value: 0.51, date: '2026-01-10' },
    current: null,
    final: { value: 0.48, date: '2026-01-10' },
    delta: -0.51,
    thresholdsCrossed: [0.5],
    story: { kind: 'fell-below' },
    hold,
    issuerTotal: { before: 3.39, after: 2.88 },
    detectedAt: '2026-01-09T07:33:00.000Z',
  }),
];

/** The events as one poll saw them: every one carries the issuer total that moved by all of them. */
function onePoll(events: PositionEvent[], before: number): PositionEvent[] {
  const after = Math.round((before + events.reduce((sum, e) => sum + e.delta, 0)) * 10_000) / 10_000;
  return events.map((event) => ({ ...event, issuerTotal: { before, after } }));
}

/**
 * `count` events over three issuers, detected a minute apart, with values of every width: a holder
 * each, and each issuer's total moving by its events in turn.
 */
function manyEvents(count: number): PositionEvent[] {
  const issuers = [ACME, BETA, GAMMA];
  const totals = new Map<string, number>();
  return Array.from({ length: count }, (_, i) => {
    const base = [opened, raised, cut, closed][i % 4] ?? raised;
    const issuer = issuers[i % 3] ?? ACME;
    const before = totals.get(issuer.id) ?? 20;
    const after = Math.round((before + base.delta) * 10_000) / 10_000;
    totals.set(issuer.id, after);
    return {
      ...base,
      id: `evt-${i}`,
      issuer,
      holder: i % 5 === 0 ? LONG_HOLDER : `${base.holder} ${i}`,
      holderKey: `holder-${i}`,
      issuerTotal: { before, after },
      detectedAt: new Date(Date.UTC(2026, 0, 9, 7, i)).toISOString(),
    };
  });
}

/** One message of every e-mail template, named for file names and test titles. */
export const EMAIL_SAMPLES: readonly { name: string; message: Message }[] = [
  { name: 'events-opened', message: { type: 'events', issuer: ACME, events: [opened] } },
  { name: 'events-raised', message: { type: 'events', issuer: ACME, events: [raised] } },
  { name: 'events-cut', message: { type: 'events', issuer: ACME, events: [cut] } },
  { name: 'events-closed', message: { type: 'events', issuer: ACME, events: [closed] } },
  { name: 'events-fell-below', message: { type: 'events', issuer: ACME, events: [fellBelow] } },
  { name: 'events-back-above', message: { type: 'events', issuer: ACME, events: [backAbove] } },
  { name: 'events-flap', message: { type: 'events', issuer: ACME, events: flap } },
  {
    name: 'events-several',
    message: { type: 'events', issuer: ACME, events: onePoll([opened, raised, cut, closed], 13.52) },
  },
  {
    name: 'batch',
    message: {
      type: 'batch',
      groups: [
        { issuer: ACME, events: onePoll([opened, closed], 3.4) },
        { issuer: BETA, events: [{ ...cut, issuer: BETA }] },
      ],
    },
  },
  {
    name: 'digest',
    message: {
      type: 'digest',
      period: { from: '2026-01-09T07:00:00.000Z', to: '2026-01-10T07:00:00.000Z', timezone: 'Europe/London' },
      events: manyEvents(12),
    },
  },
  {
    name: 'digest-short',
    message: {
      type: 'digest',
      period: { from: '2026-01-09T08:45:00.000Z', to: '2026-01-09T08:45:00.000Z', timezone: 'Europe/London' },
      events: manyEvents(3),
    },
  },
  {
    name: 'digest-empty',
    message: {
      type: 'digest',
      period: { from: '2026-01-09T07:00:00.000Z', to: '2026-01-10T07:00:00.000Z', timezone: 'Europe/London' },
      events: [],
    },
  },
  {
    name: 'notice',
    message: {
      type: 'notice',
      key: 'access-revoked',
      severity: 'critical',
      title: 'Upstream access revoked',
      text: 'The API answered 403.\nPolling stopped until the key is fixed.\n\nRun `shortwatch resume` then.',
    },
  },
  { name: 'test', message: { type: 'test', channel: 'alice', sentAt: '2026-01-09T07:31:00.000Z' } },
];
