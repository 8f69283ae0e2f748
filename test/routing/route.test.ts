import { describe, expect, it } from 'vitest';
import { ALERT_DEFAULTS } from '../../src/config/schema/alerts.js';
import { type ChannelConfig, channelSchema } from '../../src/config/schema.js';
import type { PositionEvent } from '../../src/positions/types.js';
import type { Mute } from '../../src/routing/mutes.js';
import {
  type Disposition,
  explainRoute,
  OPS_CHANNEL_SKIP,
  routeEvents,
  routeOptionsOf,
} from '../../src/routing/route.js';
import { syntheticEvent } from '../../src/routing/synthetic-event.js';
import { makeEvent } from './events.js';

function channel(fields: Record<string, unknown>): ChannelConfig {
  return channelSchema.parse({ kind: 'console', ...fields });
}

function mute(fields: Partial<Mute> & Pick<Mute, 'scope' | 'target' | 'key'>): Mute {
  return { until: Date.parse('2026-03-04T00:00:00Z'), digests: false, createdAt: 0, ...fields };
}

const DAY = new Date('2026-03-03T12:00:00Z');
const NIGHT = new Date('2026-03-03T23:00:00Z');
const quietNights = { start: '22:00', end: '07:00', timezone: 'UTC' };

const desk = channel({ name: 'desk' });
const openings = channel({ name: 'openings', filter: { kinds: ['opened'] } });
const night = channel({ name: 'night', quietHours: quietNights });
const folding = channel({ name: 'folding', quietHours: { ...quietNights, foldInto: 'daily' } });
const daily = channel({ name: 'daily', mode: 'digest', schedule: '30 7 * * 1-5' });

const acme1 = makeEvent({ id: 'a1' });
const beta = makeEvent({ id: 'b1', issuer: { id: 'ISS-BETA', name: 'Beta AG' } });
const acme2 = makeEvent({
  id: 'a2',
  kind: 'opened',
  holder: 'Citadel Advisors',
  holderKey: 'citadeladvisors',
  previous: null,
  delta: 0.8,
});

const wace = mute({ scope: 'holder', target: 'Marshall Wace', key: 'marshallwace' });

type Summary = [channel: string, issuer: string, eventIds: string, disposition: string];

function summarise(disposition: Disposition): string {
  if (disposition.action === 'defer') return `defer ${disposition.until.toISOString()}`;
  if (disposition.action === 'stage') return `stage ${disposition.digest}`;
  return 'send';
}

interface Case {
  name: string;
  events?: PositionEvent[];
  channels: ChannelConfig[];
  mutes?: Mute[];
  now?: Date;
  groups: Summary[];
  suppressed?: string[];
}

const cases: Case[] = [
  {
    name: 'one group per issuer, events in input order',
    channels: [desk],
    groups: [
      ['desk', 'ISS-ACME', 'a1,a2', 'send'],
      ['desk', 'ISS-BETA', 'b1', 'send'],
    ],
  },
  { name: 'filter picks the events', channels: [openings], groups: [['openings', 'ISS-ACME', 'a2', 'send']] },
  { name: 'no events pass: no groups', events: [acme1, beta], channels: [openings], groups: [] },
  { name: 'no events: no groups', events: [], channels: [desk, daily], groups: [] },
  {
    name: 'groups follow channel order',
    events: [acme1],
    channels: [daily, desk],
    groups: [
      ['daily', 'ISS-ACME', 'a1', 'stage daily'],
      ['desk', 'ISS-ACME', 'a1', 'send'],
    ],
  },
  {
    name: 'outside quiet hours: send',
    events: [acme1],
    channels: [night],
    groups: [['night', 'ISS-ACME', 'a1', 'send']],
  },
  {
    name: 'quiet hours: defer until they end',
    events: [acme1, beta],
    channels: [night],
    now: NIGHT,
    groups: [
      ['night', 'ISS-ACME', 'a1', 'defer 2026-03-04T07:00:00.000Z'],
      ['night', 'ISS-BETA', 'b1', 'defer 2026-03-04T07:00:00.000Z'],
    ],
  },
  {
    name: 'quiet hours with foldInto: stage into the digest',
    events: [acme1],
    channels: [folding, daily],
    now: NIGHT,
    groups: [
      ['folding', 'ISS-ACME', 'a1', 'stage daily'],
      ['daily', 'ISS-ACME', 'a1', 'stage daily'],
    ],
  },
  {
    name: 'foldInto outside quiet hours: send',
    events: [acme1],
    channels: [folding],
    groups: [['folding', 'ISS-ACME', 'a1', 'send']],
  },
  {
    name: 'digest channel stages into itself, quiet or not',
    channels: [daily],
    now: NIGHT,
    groups: [
      ['daily', 'ISS-ACME', 'a1,a2', 'stage daily'],
      ['daily', 'ISS-BETA', 'b1', 'stage daily'],
    ],
  },
  {
    name: 'mute for one channel leaves the others',
    channels: [desk, night],
    mutes: [{ ...wace, channel: 'desk' }],
    groups: [
      ['desk', 'ISS-ACME', 'a2', 'send'],
      ['night', 'ISS-ACME', 'a1,a2', 'send'],
      ['night', 'ISS-BETA', 'b1', 'send'],
    ],
    suppressed: ['desk a1', 'desk b1'],
  },
  {
    name: 'global mute silences every immediate channel; digests still receive',
    channels: [desk, night, daily],
    mutes: [wace],
    groups: [
      ['desk', 'ISS-ACME', 'a2', 'send'],
      ['night', 'ISS-ACME', 'a2', 'send'],
      ['daily', 'ISS-ACME', 'a1,a2', 'stage daily'],
      ['daily', 'ISS-BETA', 'b1', 'stage daily'],
    ],
    suppressed: ['desk a1', 'desk b1', 'night a1', 'night b1'],
  },
  {
    name: 'mute with digests: true silences digests too',
    channels: [desk, daily],
    mutes: [{ ...wace, digests: true }],
    groups: [
      ['desk', 'ISS-ACME', 'a2', 'send'],
      ['daily', 'ISS-ACME', 'a2', 'stage daily'],
    ],
    suppressed: ['desk a1', 'desk b1', 'daily a1', 'daily b1'],
  },
  {
    name: 'muted event is not folded (the mute names the immediate channel)',
    events: [acme1],
    channels: [folding],
    mutes: [wace],
    now: NIGHT,
    groups: [],
    suppressed: ['folding a1'],
  },
  {
    name: 'issuer mute by name',
    channels: [desk],
    mutes: [mute({ scope: 'issuer', target: 'ACME plc', key: 'acme plc' })],
    groups: [['desk', 'ISS-BETA', 'b1', 'send']],
    suppressed: ['desk a1', 'desk a2'],
  },
  {
    name: 'issuer mute by id',
    channels: [desk],
    mutes: [mute({ scope: 'issuer', target: 'ISS-BETA', key: 'iss-beta' })],
    groups: [['desk', 'ISS-ACME', 'a1,a2', 'send']],
    suppressed: ['desk b1'],
  },
  {
    name: 'mute for another channel changes nothing',
    events: [acme1],
    channels: [desk],
    mutes: [{ ...wace, channel: 'night' }],
    groups: [['desk', 'ISS-ACME', 'a1', 'send']],
  },
  {
    name: 'a filtered-out event is not counted as suppressed',
    events: [acme1],
    channels: [openings],
    mutes: [wace],
    groups: [],
  },
];

describe('routeEvents', () => {
  it.each(cases)('$name', ({ events, channels, mutes, now, groups, suppressed }) => {
    const result = routeEvents(events ?? [acme1, beta, acme2], channels, mutes ?? [], now ?? DAY);
    const summary = result.groups.map(
      (g): Summary => [g.channel, g.issuer.id, g.events.map((e) => e.id).join(','), summarise(g.disposition)],
    );
    expect(summary).toEqual(groups);
    expect(result.suppressed.map((s) => `${s.channel} ${s.eventId}`)).toEqual(suppressed ?? []);
  });

  it('names the mute behind each suppression', () => {
    const result = routeEvents([acme1], [desk], [{ ...wace, reason: 'noise' }], DAY);
    expect(result.suppressed).toEqual([
      { channel: 'desk', eventId: 'a1', mute: { ...wace, reason: 'noise' } },
    ]);
  });
});

describe('explainRoute', () => {
  const channels = [desk, openings, night, folding, daily];

  it.each([
    {
      name: 'daytime: sends, skips on the kind filter, stages the digest',
      now: DAY,
      mutes: [],
      expected: [
        ['desk', 'send', 'passes filter; sent now'],
        ['openings', 'skip', 'kind increased not in kinds (opened)'],
        ['night', 'send', 'passes filter; sent now'],
        ['folding', 'send', 'passes filter; sent now'],
        ['daily', 'stage', 'passes filter; staged for the next digest'],
      ],
    },
    {
      name: 'night: defers and folds',
      now: NIGHT,
      mutes: [],
      expected: [
        ['desk', 'send', 'passes filter; sent now'],
        ['openings', 'skip', 'kind increased not in kinds (opened)'],
        ['night', 'defer', 'passes filter; quiet hours, sent at 2026-03-04T07:00:00.000Z'],
        ['folding', 'stage', 'passes filter; quiet hours, folded into digest daily'],
        ['daily', 'stage', 'passes filter; staged for the next digest'],
      ],
    },
    {
      name: 'muted on one channel, reason shown',
      now: DAY,
      mutes: [{ ...wace, channel: 'desk', reason: 'rebalancing' }],
      expected: [
        [
          'desk',
          'muted',
          'holder "Marshall Wace" muted on channel desk until 2026-03-04T00:00:00.000Z (rebalancing)',
        ],
        ['openings', 'skip', 'kind increased not in kinds (opened)'],
        ['night', 'send', 'passes filter; sent now'],
        ['folding', 'send', 'passes filter; sent now'],
        ['daily', 'stage', 'passes filter; staged for the next digest'],
      ],
    },
    {
      name: 'muted everywhere including digests',
      now: DAY,
      mutes: [{ ...wace, digests: true }],
      expected: [
        ['desk', 'muted', 'holder "Marshall Wace" muted on all channels until 2026-03-04T00:00:00.000Z'],
        ['openings', 'skip', 'kind increased not in kinds (opened)'],
        ['night', 'muted', 'holder "Marshall Wace" muted on all channels until 2026-03-04T00:00:00.000Z'],
        ['folding', 'muted', 'holder "Marshall Wace" muted on all channels until 2026-03-04T00:00:00.000Z'],
        ['daily', 'muted', 'holder "Marshall Wace" muted on all channels until 2026-03-04T00:00:00.000Z'],
      ],
    },
  ])('$name', ({ now, mutes, expected }) => {
    const verdicts = explainRoute(acme1, channels, mutes, now);
    expect(verdicts.map((v) => [v.channel, v.verdict, v.reason])).toEqual(expected);
  });

  it('explains a synthetic event the way the CLI builds it', () => {
    const event = syntheticEvent({
      issuer: 'acme plc',
      holder: 'Marshall Wace',
      kind: 'opened',
      value: 0.7,
      now: DAY,
    });
    const verdicts = explainRoute(
      event,
      [channel({ name: 'big', filter: { issuers: ['Acme PLC'], minValue: 1 } }), openings],
      [],
      DAY,
    );
    expect(verdicts).toEqual([
      { channel: 'big', verdict: 'skip', reason: 'value 0.7% below minValue 1' },
      { channel: 'openings', verdict: 'send', reason: 'passes filter; sent now' },
    ]);
  });
});

describe('the ops channel', () => {
  // The example config's ops channel has no filter: before issue 31 it got every alert (64 e-mails in 25 min).
  const ops = channel({ name: 'ops' });
  const options = routeOptionsOf({
    alerts: ALERT_DEFAULTS,
    ops: { channel: 'ops' },
    holders: { aliases: [] },
  });

  it('routes no event to the channel named by ops.channel, and says why', () => {
    const { groups, verdicts } = routeEvents([acme1, acme2], [desk, ops], [], DAY, options);
    expect(groups.map((g) => g.channel)).toEqual(['desk']);
    expect(verdicts.flat().filter((v) => v.channel === 'ops')).toEqual([
      { channel: 'ops', verdict: 'skip', reason: OPS_CHANNEL_SKIP },
      { channel: 'ops', verdict: 'skip', reason: OPS_CHANNEL_SKIP },
    ]);
  });

  it('routes events to a channel of that name when ops.channel names another', () => {
    const other = routeOptionsOf({
      alerts: ALERT_DEFAULTS,
      ops: { channel: 'desk' },
      holders: { aliases: [] },
    });
    const verdicts = explainRoute(acme1, [desk, ops], [], DAY, other);
    expect(verdicts.map((v) => [v.channel, v.verdict])).toEqual([
      ['desk', 'skip'],
      ['ops', 'send'],
    ]);
  });
});
