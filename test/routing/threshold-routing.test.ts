import { describe, expect, it } from 'vitest';
import { type ChannelConfig, channelSchema } from '../../src/config/schema.js';
import { tellStories } from '../../src/positions/threshold-story.js';
import { planDelivery } from '../../src/routing/plan-delivery.js';
import { explainRoute } from '../../src/routing/route.js';
import { recordFallsTold } from '../../src/routing/told-record.js';
import { makeEvent } from './events.js';

function channel(fields: Record<string, unknown>): ChannelConfig {
  return channelSchema.parse({ kind: 'console', ...fields });
}

// `everyChange: false` is every people channel's default (Slack, e-mail, Teams); webhooks and the
// console default to true.
const desk = channel({ name: 'desk', everyChange: false });
const machine = channel({ name: 'machine' });
const daily = channel({ name: 'daily', mode: 'digest', schedule: '30 7 * * 1-5', everyChange: false });
const night = channel({
  name: 'night',
  everyChange: false,
  quietHours: { start: '10:05', end: '11:00', timezone: 'UTC' },
});
const NOW = new Date('2026-03-03T10:00:00.000Z');

const confirmed = makeEvent({
  id: 'confirmed',
  kind: 'closed',
  previous: { value: 0.47, date: '2026-03-01' },
  current: null,
  delta: -0.47,
  // Every channel of these tests took the fall (its record); without one, none did.
  story: {
    kind: 'below-confirmed',
    fellBelowOn: '2026-03-01',
    toldTo: ['desk', 'daily', 'night', 'machine'],
  },
});
const held = makeEvent({
  id: 'held',
  kind: 'decreased',
  previous: { value: 0.52, date: '2026-03-02' },
  current: { value: 0.48, date: '2026-03-03' },
  delta: -0.04,
  story: { kind: 'fell-below' },
  hold: { since: '2026-03-03T10:00:00.000Z', until: '2026-03-03T10:15:00.000Z' },
});
const other = makeEvent({ id: 'other', holder: 'Orca LP', holderKey: 'orcalp', delta: 0.2 });

describe('routing the threshold story', () => {
  it('a confirmed close is not told twice to people, stays a quiet digest line, and reaches machines', () => {
    expect(explainRoute(confirmed, [desk, daily, machine], [], NOW)).toEqual([
      {
        channel: 'desk',
        verdict: 'skip',
        reason:
          'already told: fell below the 0.5% disclosure threshold (2026-03-01); its leaving the register is in the event log',
      },
      { channel: 'daily', verdict: 'stage', reason: 'passes filter; staged for the next digest' },
      { channel: 'machine', verdict: 'send', reason: 'passes filter; sent now' },
    ]);
  });

  it('alerts.confirmedCloses: silent leaves it out of digests too', () => {
    const verdicts = explainRoute(confirmed, [daily], [], NOW, {
      confirmedCloses: 'silent',
      opsChannel: undefined,
    });
    expect(verdicts.map((v) => [v.verdict, v.reason])).toEqual([
      [
        'skip',
        'already told: fell below the 0.5% disclosure threshold (2026-03-01); its leaving the register is in the event log (alerts.confirmedCloses: silent)',
      ],
    ]);
  });

  it('a held change waits for the end of the hold on people channels, a later quiet-hours end wins', () => {
    const plan = planDelivery([held, other], [desk, night, machine, daily], [], NOW);
    const summary = plan.targets.map((t) => [
      t.type,
      t.channel,
      t.readyAt && new Date(t.readyAt).toISOString(),
      t.events.map((e) => e.id),
    ]);
    expect(summary).toEqual([
      ['outbox', 'desk', '2026-03-03T10:15:00.000Z', ['held']],
      ['outbox', 'desk', null, ['other']],
      // Quiet 10:05–11:00: the hold ends inside it, so the end of quiet hours decides.
      ['outbox', 'night', '2026-03-03T11:00:00.000Z', ['held']],
      ['outbox', 'night', null, ['other']],
      ['outbox', 'machine', null, ['held', 'other']],
      ['digest', 'daily', null, ['held', 'other']],
    ]);
    expect(plan.logged.find((l) => l.event.id === 'held')?.routes[0]).toEqual({
      channel: 'desk',
      verdict: 'defer',
      reason:
        'passes filter; the holder is flapping around 0.5%: held until 2026-03-03T10:15:00.000Z and sent with its other changes in one message',
    });
  });

  it("each channel's copy says what of the issuer's changes in this poll it does not show", () => {
    const openings = channel({ name: 'openings', filter: { kinds: ['opened'] } });
    const opened = makeEvent({
      id: 'opened',
      kind: 'opened',
      holder: 'New LP',
      holderKey: 'newlp',
      previous: null,
      delta: 0.6,
    });
    const plan = planDelivery([held, other, opened], [openings, machine, desk], [], NOW);
    const hidden = plan.targets.map((t) => [t.channel, t.events.map((e) => [e.id, e.hidden ?? null])]);
    expect(hidden).toEqual([
      ['openings', [['opened', { count: 2, delta: 0.16 }]]],
      [
        'machine',
        [
          ['held', null],
          ['other', null],
          ['opened', null],
        ],
      ],
      // The held change goes in a later message: this one says the total includes it.
      ['desk', [['held', { count: 2, delta: 0.8 }]]],
      [
        'desk',
        [
          ['other', { count: 1, delta: -0.04 }],
          ['opened', { count: 1, delta: -0.04 }],
        ],
      ],
    ]);
    // The event log keeps the events as detected: the annotation is only on channel copies.
    expect(plan.logged.map((l) => l.event.hidden)).toEqual([undefined, undefined, undefined]);
  });
});

describe('what each channel was told decides "already told" (issue 20, finding 2)', () => {
  const closesOnly = channel({ name: 'closes', everyChange: false, filter: { kinds: ['closed'] } });
  const toldDeskOnly = makeEvent({
    ...confirmed,
    story: { kind: 'below-confirmed', fellBelowOn: '2026-03-01', toldTo: ['desk'] },
  });

  it('a channel that never took the fall below hears of it through the close; the one told skips it', () => {
    expect(
      explainRoute(toldDeskOnly, [desk, closesOnly], [], NOW).map((v) => [v.channel, v.verdict]),
    ).toEqual([
      ['desk', 'skip'],
      ['closes', 'send'],
    ]);
  });

  it('a close without a record was told to none: every channel hears it (memory pruned, or kept by older versions)', () => {
    const unrecorded = makeEvent({
      ...confirmed,
      story: { kind: 'below-confirmed', fellBelowOn: '2026-03-01' },
    });
    expect(explainRoute(unrecorded, [desk, closesOnly], [], NOW).map((v) => v.verdict)).toEqual([
      'send',
      'send',
    ]);
  });

  it('the fall below records the channels that took it: sent, held, staged; not filtered out or muted', () => {
    const fell = makeEvent({ ...held, hold: undefined });
    const plan = planDelivery([fell], [desk, closesOnly, daily, machine], [], NOW);
    const memory = recordFallsTold(
      { [fell.holderKey]: { below: { date: '2026-03-03', at: NOW.toISOString() } } },
      plan.logged,
    );
    expect(memory[fell.holderKey]?.below?.toldTo).toEqual(['desk', 'daily', 'machine']);
  });

  it('the story of the later close carries the record, so routing reads it', () => {
    const memory = {
      [confirmed.holderKey]: { below: { date: '2026-03-01', at: NOW.toISOString(), toldTo: ['desk'] } },
    };
    const gone = makeEvent({ ...confirmed, story: undefined });
    const told = tellStories([gone], memory, NOW, { reopenWindowMs: 30 * 86_400_000, flapWindowMs: 0 });
    expect(told.events[0]?.story).toEqual({
      kind: 'below-confirmed',
      fellBelowOn: '2026-03-01',
      toldTo: ['desk'],
    });
  });

  const windows = (reopenWindowMs: number) => ({ reopenWindowMs, flapWindowMs: 0 });
  const fallenAt = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

  it.each([
    ['31 days after the fall, past a 30-day reopen window', 31, 30 * 86_400_000],
    ['with reopenWindow: 0s', 1, 0],
  ])('the record lives until the close: %s', (_name, days, reopenWindowMs) => {
    const memory = {
      [confirmed.holderKey]: { below: { date: '2026-02-01', at: fallenAt(days), toldTo: ['desk'] } },
    };
    const gone = makeEvent({ ...confirmed, story: undefined });
    const told = tellStories([gone], memory, NOW, windows(reopenWindowMs));
    const close = told.events[0];
    expect(close?.story).toEqual({ kind: 'below-confirmed', fellBelowOn: '2026-02-01', toldTo: ['desk'] });
    expect(close && explainRoute(close, [desk, closesOnly], [], NOW).map((v) => v.verdict)).toEqual([
      'skip',
      'send',
    ]);
    // The close spends the record; the fall alone is pruned once past the reopen window.
    expect(told.memory[confirmed.holderKey]?.below).toEqual({ date: '2026-02-01', at: fallenAt(days) });
    expect(tellStories([], told.memory, NOW, windows(reopenWindowMs)).memory).toEqual({});
  });

  it('a fall still listed keeps its record past the reopen window; a closed one does not outlive it', () => {
    const memory = {
      open: { below: { date: '2025-01-01', at: '2025-01-01T00:00:00.000Z', toldTo: ['desk'] } },
      closed: { below: { date: '2025-01-01', at: '2025-01-01T00:00:00.000Z' } },
    };
    expect(tellStories([], memory, NOW, windows(0)).memory).toEqual({ open: memory.open });
  });

  it('a fall straight off the list is the close itself: no record is kept for a later close', () => {
    const offList = makeEvent({
      ...held,
      hold: undefined,
      current: null,
      kind: 'closed',
      story: { kind: 'fell-below' },
    });
    const plan = planDelivery([offList], [desk], [], NOW);
    const memory = recordFallsTold(
      { [offList.holderKey]: { below: { date: '2026-03-02', at: NOW.toISOString() } } },
      plan.logged,
    );
    expect(memory[offList.holderKey]?.below).toEqual({ date: '2026-03-02', at: NOW.toISOString() });
  });
});
