import { describe, expect, it } from 'vitest';
import { eventsSubject } from '../../src/channels/email/subject.js';
import { aggregateHeadline, storyLines, storyOf, storySentence } from '../../src/channels/event-story.js';
import { SLACK_MARKUP } from '../../src/channels/slack/lines.js';
import { eventsStoryDraft } from '../../src/channels/story-draft.js';
import { renderWebhookBody } from '../../src/channels/webhook/render.js';
import { aggregateEventsSchema } from '../../src/config/schema/sources.js';
import { aggregateAlerts } from '../../src/jobs/registers/aggregate-alerts.js';
import { matchFilter } from '../../src/routing/filter.js';
import { diffAggregates } from '../../src/sources/aggregate-diff.js';
import type { AggregateEvent } from '../../src/sources/aggregate-events.js';
import { aggregateIssuer, snapshotOf } from '../../src/sources/snapshot.js';

const CTX = {
  source: 'fca',
  from: '2026-09-15T08:00:00.000Z',
  detectedAt: '2026-09-16T08:00:00.000Z',
  listedOn: '2026-09-16',
};

function ansp(values: Record<string, number>) {
  const issuers = Object.entries(values).map(([isin, percent]) =>
    aggregateIssuer({ isin, name: `Issuer ${isin}` }, { percent, date: '2026-09-15', thresholdPercent: 0.2 }),
  );
  return snapshotOf('uk-ansp-current', issuers, issuers.length, {
    namesHolders: false,
    aggregateThreshold: 0.2,
  });
}

function alertsBetween(before: Record<string, number>, after: Record<string, number>, from = CTX.from) {
  const events: AggregateEvent[] = diffAggregates(ansp(before), ansp(after), aggregateEventsSchema.parse({}));
  return aggregateAlerts(events, { ...CTX, from });
}

const sentences = (alerts: ReturnType<typeof alertsBetween>) => storyLines(alerts).map(storySentence);

describe('aggregateAlerts: aggregate events as events every channel tells', () => {
  it('tells a move, a crossing (one event carrying the level), an end and a start, each with its threshold', () => {
    const alerts = alertsBetween({ GB1: 6.12, GB2: 0.95, GB3: 0.44 }, { GB1: 6.45, GB2: 1.05, GB4: 0.3 });
    expect(alerts.map((a) => [a.issuer.id, a.kind, a.aggregate?.kind, a.thresholdsCrossed])).toEqual([
      ['GB1', 'increased', 'aggregate-changed', []],
      ['GB2', 'increased', 'aggregate-crossed', [1]],
      ['GB3', 'decreased', 'aggregate-ended', []],
      ['GB4', 'opened', 'aggregate-entered', []],
    ]);
    expect(sentences(alerts)).toEqual([
      'Aggregate of positions from 0.2% raised 6.12% → 6.45% (+0.33 pp) on 2026-09-15',
      'Aggregate of positions from 0.2% raised 0.95% → 1.05% (+0.10 pp) on 2026-09-15',
      'Aggregate of positions from 0.2% no longer published: 0.44% → under 0.20% on 2026-09-15',
      'Aggregate of positions from 0.2% published 0.30% on 2026-09-15',
    ]);
    expect(alerts.every((a) => a.source === 'fca')).toBe(true);
  });

  it('never reads an aggregate against the 0.5% disclosure threshold', () => {
    const [fall] = alertsBetween({ GB1: 0.6 }, { GB1: 0.4 });
    expect(fall?.kind).toBe('decreased');
    expect(fall && storyOf(fall)).toBeUndefined();
    const [ended] = alertsBetween({ GB1: 0.6 }, {});
    expect(ended?.kind).not.toBe('closed');
    expect(ended && eventsSubject('Issuer GB1', [ended])).toBe(
      'Aggregate of positions from 0.2% no longer published in Issuer GB1: 0.60% → under 0.20%',
    );
  });

  it('gives a replay of one read the same ids, and the next read new ones', () => {
    const ids = (from: string) => alertsBetween({ GB1: 1 }, { GB1: 1.2 }, from).map((a) => a.id);
    expect(ids(CTX.from)).toEqual(ids(CTX.from));
    expect(ids(CTX.from)).not.toEqual(ids('2026-09-16T08:00:00.000Z'));
  });

  it('shows the register and the aggregate in a Slack draft, outside the named total', () => {
    const alerts = alertsBetween({ GB1: 1 }, { GB1: 1.2 });
    const draft = eventsStoryDraft(
      { type: 'events', issuer: { id: 'GB1', name: 'Issuer GB1' }, events: alerts },
      SLACK_MARKUP,
    );
    expect(draft?.context).toBe('GB1 · from register fca · disclosed 2026-09-15');
  });

  it('reaches a webhook as JSON with its source and what the aggregate did', () => {
    const alerts = alertsBetween({ GB2: 0.95 }, { GB2: 1.05 });
    const body = JSON.parse(
      renderWebhookBody(
        'hook',
        { type: 'events', issuer: { id: 'GB2', name: 'Issuer GB2' }, events: alerts },
        new Date(0),
      ),
    );
    expect(body.events[0]).toMatchObject({
      source: 'fca',
      holder: 'Aggregate of positions from 0.2%',
      thresholdsCrossed: [1],
      aggregate: { kind: 'aggregate-crossed', thresholdPercent: 0.2, direction: 'up' },
    });
  });

  it('is filtered and muted by its holder, the aggregate', () => {
    const [alert] = alertsBetween({ GB1: 1 }, { GB1: 1.2 });
    if (!alert) throw new Error('no alert');
    expect(matchFilter(alert, { holders: ['Aggregate of positions'] })).toEqual({ pass: true });
    expect(matchFilter(alert, { excludeHolders: ['aggregate'] }).pass).toBe(false);
    expect(matchFilter(alert, { issuers: ['GB1'] })).toEqual({ pass: true });
  });

  it('headlines scope events by the list', () => {
    const before = snapshotOf('uk-reportable-shares', [aggregateIssuerScope('GB1')], 1, {
      content: 'scope',
      namesHolders: false,
    });
    const after = snapshotOf('uk-reportable-shares', [aggregateIssuerScope('GB2')], 1, {
      content: 'scope',
      namesHolders: false,
    });
    const alerts = aggregateAlerts(diffAggregates(before, after, aggregateEventsSchema.parse({})), {
      ...CTX,
      source: 'rsl',
    });
    expect(
      storyLines(alerts).map((line, i) => aggregateHeadline(line, alerts[i]?.issuer.name ?? '')),
    ).toEqual([
      'Issuer GB1 removed from the Reportable Shares List',
      'Issuer GB2 added to the Reportable Shares List',
    ]);
  });
});

function aggregateIssuerScope(isin: string) {
  return { key: isin, isin, name: `Issuer ${isin}`, positions: [] };
}
