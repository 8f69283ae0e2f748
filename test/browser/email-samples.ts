import type { Message } from '../../src/channels/types.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { ACME, makeEvent } from '../channels/email/fixtures.js';

const BETA = { id: 'ISS-2', name: 'Pemberton Airways plc' };
const GAMMA = { id: 'ISS-3', name: 'Gamma Holdings Group Ltd' };
const LONG_HOLDER = 'Qube Research & Technologies Limited (acting as investment manager)';

const opened = makeEvent({
  kind: 'opened',
  holder: 'Citadel Advisors LLC',
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
  previous: { value: 11.23, date: '2026-01-08' },
  current: { value: 10.98, date: '2026-01-09' },
  delta: -0.25,
  thresholdsCrossed: [],
  issuerTotal: { before: 13.52, after: 13.27 },
});
const closed = makeEvent({
  kind: 'closed',
  holder: 'Marshall Wace LLP',
  previous: { value: 0.56, date: '2026-01-02' },
  current: null,
  final: { value: 0.47, date: '2026-01-09' },
  delta: -0.56,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 3.4, after: 2.84 },
});

/** `count` events over three issuers, detected a minute apart, with values of every width. */
function manyEvents(count: number): PositionEvent[] {
  const issuers = [ACME, BETA, GAMMA];
  return Array.from({ length: count }, (_, i) => {
    const base = [opened, raised, cut, closed][i % 4] ?? raised;
    return {
      ...base,
      id: `evt-${i}`,
      issuer: issuers[i % 3] ?? ACME,
      holder: i % 5 === 0 ? LONG_HOLDER : `${base.holder} ${i}`,
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
  {
    name: 'events-several',
    message: { type: 'events', issuer: ACME, events: [opened, raised, cut, closed] },
  },
  {
    name: 'batch',
    message: {
      type: 'batch',
      groups: [
        { issuer: ACME, events: [opened, closed] },
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
