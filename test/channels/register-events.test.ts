import { describe, expect, it } from 'vitest';
import { renderDigest } from '../../src/channels/email/render-digest.js';
import { renderEvents } from '../../src/channels/email/render-events.js';
import { renderSlack } from '../../src/channels/slack/render.js';
import { renderTeams } from '../../src/channels/teams/render.js';
import type { EventsMessage } from '../../src/channels/types.js';
import { renderWebhookBody } from '../../src/channels/webhook/render.js';
import { aggregateAlerts } from '../../src/jobs/registers/aggregate-alerts.js';
import type { PositionEvent } from '../../src/positions/types.js';
import type { AggregateEvent } from '../../src/sources/aggregate-events.js';
import { slackText } from '../e2e/harness.js';

const issuer = {
  register: 'se-fi-current' as const,
  key: 'SE0000108227',
  isin: 'SE0000108227',
  name: 'Aktiebolaget SKF',
};
const ctx = {
  source: 'fi',
  from: '2026-11-25T08:00:00.000Z',
  detectedAt: '2026-11-26T08:00:00.000Z',
  listedOn: '2026-11-26',
};

/** One of each kind a Swedish register read can tell beside named holders. */
const AGGREGATES: AggregateEvent[] = [
  {
    kind: 'aggregate-changed',
    issuer,
    thresholdPercent: 0.1,
    from: { percent: 4.87, date: '2026-11-24' },
    to: { percent: 5.5, date: '2026-11-25' },
    changePp: 0.63,
  },
  {
    kind: 'aggregate-crossed',
    issuer,
    thresholdPercent: 0.1,
    from: { percent: 4.87, date: '2026-11-24' },
    to: { percent: 5.5, date: '2026-11-25' },
    level: 5,
    direction: 'up',
  },
  {
    kind: 'below-threshold-moved',
    issuer,
    thresholdPercent: 0.1,
    fromPercent: 3.65,
    toPercent: 4.28,
    changePp: 0.63,
    aggregatePercent: 5.5,
    namedPercent: 1.22,
    namedFromPercent: 0.5,
  },
];

function message(events: PositionEvent[]): EventsMessage {
  const [first] = events;
  if (!first) throw new Error('no events');
  return { type: 'events', issuer: first.issuer, events };
}

/** Every `text` of a Teams card, in order: what a reader sees. */
function textsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'text' && typeof v === 'string' ? [v] : textsOf(v),
  );
}

/** What each channel shows of one message, as text a reader sees (or, for the webhook, its JSON). */
function everyChannel(events: PositionEvent[]): Record<string, string> {
  const msg = message(events);
  return {
    slack: renderSlack(msg).map(slackText).join('\n'),
    // Teams marks names and values bold: what a reader sees is the text without the markers.
    teams: textsOf(renderTeams(msg)).join('\n').replaceAll('**', ''),
    email: renderEvents(msg, { timezone: 'Europe/Stockholm' }).text,
    digest: renderDigest({
      type: 'digest',
      period: { from: '2026-11-25T07:30:00Z', to: '2026-11-26T07:30:00Z', timezone: 'Europe/Stockholm' },
      events,
    }).text,
  };
}

describe('register events on every channel', () => {
  const events = aggregateAlerts(AGGREGATES, ctx);

  it('is one aggregate line carrying the crossed level, and one below-threshold line', () => {
    expect(events.map((e) => [e.holder, e.aggregate?.kind, e.thresholdsCrossed])).toEqual([
      ['Aggregate of positions from 0.1%', 'aggregate-crossed', [5]],
      ['Below the public threshold (aggregate from 0.1% minus named positions)', 'below-threshold-moved', []],
    ]);
  });

  it.each(['slack', 'teams', 'email', 'digest'])(
    '%s names the threshold each figure counts from and the register, and never reads a sum against the 0.5% threshold',
    (channel) => {
      const text = everyChannel(events)[channel] ?? '';
      expect(text).toMatch(/Aggregate of positions from 0\.1%[^\n]*4\.87% → 5\.50%/);
      expect(text).toMatch(
        /Below the public threshold \(aggregate from 0\.1% minus named positions\)[^\n]*3\.65% → 4\.28%/,
      );
      expect(text).toMatch(/register fi\b/);
      expect(text).not.toMatch(/fell below|disclosure threshold/);
    },
  );

  it('webhook receivers get the aggregate facts with the threshold and the source, as data', () => {
    const body = JSON.parse(renderWebhookBody('hook', message(events), new Date('2026-11-26T08:00:05Z')));
    expect(body.events.map((e: PositionEvent) => [e.source, e.aggregate])).toEqual([
      ['fi', { kind: 'aggregate-crossed', thresholdPercent: 0.1, direction: 'up' }],
      [
        'fi',
        { kind: 'below-threshold-moved', thresholdPercent: 0.1, aggregatePercent: 5.5, namedPercent: 1.22 },
      ],
    ]);
  });
});
