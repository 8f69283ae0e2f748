import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { withIssuerLabel } from '../../src/jobs/issuer-label.js';
import { diffPositions } from '../../src/positions/index.js';
import { planDelivery } from '../../src/routing/index.js';

const config = parseConfig(
  `
upstream: { baseUrl: "http://127.0.0.1:9", apiKey: k }
watchlist: [{ id: ISS-1, label: ACME }]
channels:
  - { name: by-name, kind: console, filter: { issuers: [Acme plc] } }
  - { name: by-label, kind: console, filter: { issuers: [ACME] } }
`,
  'test.yaml',
);

const { events } = diffPositions({
  previous: null,
  issuer: { id: 'ISS-1', name: 'Acme plc' },
  rows: [{ position_holder: 'D. E. Shaw & Co., L.P.', value: 0.7, date: '2026-01-02' }],
  lastUpdated: null,
  now: new Date('2026-01-05T08:00:00Z'),
  thresholds: [],
  onFirstSeen: 'alert',
});
const plan = planDelivery(events, config.channels, [], new Date('2026-01-05T08:00:00Z'));

describe('withIssuerLabel', () => {
  it('shows the label as the issuer name of every event committed, routed as the upstream names it', () => {
    const labelled = withIssuerLabel(plan, 'ACME');
    // Routing saw the upstream's name: a filter on it passes, one on the label does not.
    expect(labelled.targets.map((t) => t.channel)).toEqual(['by-name']);
    expect(labelled.targets.flatMap((t) => t.events.map((e) => e.issuer))).toEqual([
      { id: 'ISS-1', name: 'ACME' },
    ]);
    expect(labelled.logged.map((l) => l.event.issuer)).toEqual([{ id: 'ISS-1', name: 'ACME' }]);
    expect(labelled.logged[0]?.routes.map((r) => r.verdict)).toEqual(['send', 'skip']);
  });

  it('never changes an event id or holder key', () => {
    const labelled = withIssuerLabel(plan, 'ACME');
    const identity = (p: typeof plan) => p.logged.map((l) => [l.event.id, l.event.holderKey]);
    expect(identity(labelled)).toEqual(identity(plan));
  });

  it.each([undefined, '', '   '])('leaves the plan as it is without a label (%j)', (label) => {
    expect(withIssuerLabel(plan, label)).toBe(plan);
  });
});
