import { describe, expect, it } from 'vitest';
import { renderDigest } from '../../src/channels/email/render-digest.js';
import { renderSlack } from '../../src/channels/slack/render.js';
import { registerSourceSchema } from '../../src/config/schema/sources.js';
import { type ChannelConfig, channelSchema } from '../../src/config/schema.js';
import {
  NAMED_HOLDERS,
  planRegimeEvent,
  regimeEvent,
  withoutBoundaryArtefacts,
} from '../../src/jobs/observe/regime-event.js';
import { diffRegister, type RegimeDrop } from '../../src/jobs/registers/register-diff.js';
import { positionEventSchema } from '../../src/positions/schemas.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { muteKey } from '../../src/routing/mutes.js';
import { issuersFromPositions, snapshotOf } from '../../src/sources/snapshot.js';
import { slackText } from '../e2e/harness.js';
import { makeEvent } from '../routing/events.js';

const source = registerSourceSchema.parse({
  name: 'fca-legacy',
  kind: 'uk-legacy-holders',
  url: 'http://127.0.0.1/x',
  regimeBoundary: { namedHoldersUntil: '2026-07-12' },
});

/** The drop of one UK issuer whose two named holders the legacy workbook stopped listing. */
function ukDrop(): RegimeDrop {
  const rows = [
    {
      isin: 'GB0000000001',
      issuer: 'Ocado Group plc',
      holder: 'Marshall Wace LLP',
      percent: 0.8,
      date: '2026-07-09',
    },
    {
      isin: 'GB0000000001',
      issuer: 'Ocado Group plc',
      holder: 'Citadel Advisors LLC',
      percent: 0.6,
      date: '2026-07-10',
    },
  ];
  const before = snapshotOf('uk-legacy-holders', issuersFromPositions(rows), rows.length);
  const input = { source, thresholds: [], onFirstSeen: 'baseline' as const, alsoCommit: new Set<string>() };
  const first = diffRegister({
    ...input,
    snapshot: before,
    previous: new Map(),
    now: new Date('2026-07-10T08:00:00Z'),
  });
  const previous = new Map(first.issuers.map((i) => [i.key, i.diff.next]));
  const after = snapshotOf('uk-legacy-holders', [], 0);
  // The read that empties the register removes all it listed: a confirming read agreed (issue 28).
  const [drop] = diffRegister({
    ...input,
    snapshot: after,
    previous,
    now: new Date('2026-07-14T08:00:00Z'),
    confirmed: true,
  }).drops;
  if (drop === undefined) throw new Error('no regime drop');
  return drop;
}

const ctx = { source: 'fca-legacy', detectedAt: '2026-07-14T08:00:00.000Z', date: '2026-07-13' };
const channel = (fields: Record<string, unknown>): ChannelConfig =>
  channelSchema.parse({ kind: 'console', ...fields });

describe('a regime drop as one event', () => {
  it('is one logged event, never a close, with the last named sum and the holders it stands for', () => {
    const event = regimeEvent(ukDrop(), ctx);
    expect(positionEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      kind: 'decreased',
      holder: NAMED_HOLDERS,
      issuer: { id: 'GB0000000001', name: 'Ocado Group plc' },
      previous: { value: 1.4, date: '2026-07-10' },
      current: { value: 0, date: '2026-07-13' },
      source: 'fca-legacy',
      aggregate: { kind: 'named-holders-ended', namedPercent: 1.4, namedHolders: 2 },
    });
    // The same drop read again (a crash before the commit) is the same event: the commit dedupes it.
    expect(regimeEvent(ukDrop(), ctx).id).toBe(event.id);
  });

  it('goes where its closes would have gone: immediate channels, digests, not a filtered or muted one', () => {
    const drop = ukDrop();
    const event = regimeEvent(drop, ctx);
    const channels = [
      channel({ name: 'desk' }),
      channel({ name: 'morning', mode: 'digest', schedule: '30 7 * * 1-5' }),
      channel({ name: 'openings', filter: { kinds: ['opened'] } }),
      channel({ name: 'muted' }),
    ];
    const mutes = [
      {
        scope: 'issuer' as const,
        target: 'GB0000000001',
        key: 'm',
        channel: 'muted',
        until: Date.parse('2026-08-01'),
        digests: false,
        createdAt: 0,
      },
    ];
    const plan = planRegimeEvent(drop, event, {
      channels,
      mutes,
      now: new Date('2026-07-14T08:00:00Z'),
      options: { confirmedCloses: 'digest', opsChannel: undefined },
    });
    expect(plan.targets.map((t) => [t.type, t.channel, t.events.map((e) => e.id)])).toEqual([
      ['outbox', 'desk', [event.id]],
      ['digest', 'morning', [event.id]],
    ]);
    expect(plan.logged).toHaveLength(1);
    expect(plan.logged[0]?.routes.map((r) => `${r.channel} ${r.verdict}`)).toEqual([
      'desk send',
      'morning stage',
      'openings skip',
      'muted muted',
    ]);
  });

  it('is muted by a mute of "Named holders", the name its message shows, while the closes were not', () => {
    const drop = ukDrop();
    const event = regimeEvent(drop, ctx);
    const mutes = [
      {
        scope: 'holder' as const,
        target: NAMED_HOLDERS,
        key: muteKey('holder', NAMED_HOLDERS),
        channel: 'desk',
        until: Date.parse('2026-08-01'),
        digests: false,
        createdAt: 0,
      },
    ];
    const plan = planRegimeEvent(drop, event, {
      channels: [channel({ name: 'desk' }), channel({ name: 'trading' })],
      mutes,
      now: new Date('2026-07-14T08:00:00Z'),
      options: { confirmedCloses: 'digest', opsChannel: undefined },
    });
    expect(plan.targets.map((t) => t.channel)).toEqual(['trading']);
    expect(plan.logged[0]?.routes.map((r) => `${r.channel} ${r.verdict}`)).toEqual([
      'desk muted',
      'trading send',
    ]);
  });

  it('leaves out the below-threshold move of the read that stopped naming holders, and keeps the aggregate', () => {
    const kinds = (events: PositionEvent[]) => events.map((e) => e.aggregate?.kind);
    const events = [
      makeEvent({ aggregate: { kind: 'aggregate-changed', thresholdPercent: 0.1 } }),
      makeEvent({ aggregate: { kind: 'below-threshold-moved', thresholdPercent: 0.1 } }),
    ];
    expect(kinds(withoutBoundaryArtefacts(events))).toEqual(['aggregate-changed']);
  });

  it('reads in a digest and on Slack as no longer published, never as fell below 0.5%', () => {
    const event = regimeEvent(ukDrop(), ctx);
    const digest = renderDigest({
      type: 'digest',
      period: { from: '2026-07-13T07:30:00Z', to: '2026-07-14T07:30:00Z', timezone: 'Europe/London' },
      events: [event],
    });
    const slack = renderSlack({ type: 'events', issuer: event.issuer, events: [event] })
      .map(slackText)
      .join('\n');
    for (const text of [digest.text, slack]) {
      expect(text).toMatch(
        /Named holders no longer published by the register: a change of what it publishes, not 2 closed positions: last named sum 1\.40%/,
      );
      // No holder's close is told: neither holder is named, nothing fell below 0.5%.
      expect(text).not.toMatch(/fell below|Marshall Wace|Citadel/);
    }
  });
});
