import { describe, expect, it } from 'vitest';
import type { Hazard } from './faults.js';
import { type ExpectedUnit, expectedUnits, judge, type RepeatRule, resends } from './oracle.js';
import type { Unit } from './received.js';

const unit = (key: string, at: number, extra: Partial<Unit> = {}): Unit => ({ key, at, ...extra });
const expect1 = (key: string, step: number, startedAt: number): ExpectedUnit => ({ key, step, startedAt });

/** A unit of a message: its resend key is the message's identity (Message-ID, or a Slack post's text). */
const inMessage = (key: string, at: number, message: string, identity: string, n = 0): Unit =>
  unit(key, at, { message, messageId: identity, resendKey: `${identity}|${key}#${n}` });

const crashAt = (at: number): Hazard => ({ from: at, to: at, what: `crash at ${at}` });

interface Case {
  expected: ExpectedUnit[];
  received: Unit[];
  hazards?: Hazard[];
  rule?: RepeatRule;
  want: { ok: boolean; missing: number; invented: number; duplicates: number; explained: number };
}

const optional = (key: string, step: number, startedAt: number): ExpectedUnit => ({
  ...expect1(key, step, startedAt),
  optional: true,
});

const cases: Array<[string, Case]> = [
  [
    'an optional unit (a close told as its fall) not received is not missing',
    {
      expected: [expect1('A', 1, 0), optional('I|closed', 1, 0)],
      received: [unit('A', 10)],
      want: { ok: true, missing: 0, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    'an optional unit received once (the off-the-list stop of a reopening) is expected',
    {
      expected: [optional('I|closed', 1, 0), expect1('I|opened 0.53%', 2, 100)],
      received: [unit('I|closed', 200), unit('I|opened 0.53%', 200)],
      want: { ok: true, missing: 0, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    "another holder's real close of the same key is still required beside an optional one",
    {
      expected: [optional('I|closed', 1, 0), expect1('I|closed', 1, 0)],
      received: [],
      want: { ok: false, missing: 1, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    'each expected unit received once',
    {
      expected: [expect1('A', 1, 0), expect1('B', 1, 0)],
      received: [unit('B', 10), unit('A', 20)],
      want: { ok: true, missing: 0, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    'a unit never received is missing',
    {
      expected: [expect1('A', 1, 0), expect1('B', 1, 0)],
      received: [unit('A', 10)],
      want: { ok: false, missing: 1, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    'a unit nobody expected is invented',
    {
      expected: [expect1('A', 1, 0)],
      received: [unit('A', 10), unit('Z', 11)],
      want: { ok: false, missing: 0, invented: 1, duplicates: 0, explained: 0 },
    },
  ],
  [
    'a key recurring in a later step is matched to that step, not taken for a repeat',
    {
      expected: [expect1('A', 1, 0), expect1('A', 2, 50_000)],
      received: [unit('A', 10_000), unit('A', 55_000)],
      want: { ok: true, missing: 0, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    'two copies before the second step began: one is a repeat, the second step is missing',
    {
      expected: [expect1('A', 1, 0), expect1('A', 2, 50_000)],
      received: [unit('A', 10_000), unit('A', 20_000)],
      want: { ok: false, missing: 1, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'Slack: a whole post sent again after a crash right after the first copy is a resend',
    {
      expected: [expect1('A', 1, 0), expect1('B', 1, 0)],
      received: [
        inMessage('A', 10_000, 'p1', 'post AB'),
        inMessage('B', 10_000, 'p1', 'post AB'),
        inMessage('A', 16_000, 'p2', 'post AB'),
        inMessage('B', 16_000, 'p2', 'post AB'),
      ],
      hazards: [crashAt(10_300)],
      rule: 'resend-after-crash',
      want: { ok: true, missing: 0, invented: 0, duplicates: 2, explained: 2 },
    },
  ],
  [
    'Slack: a whole post sent again with no crash near the first copy fails',
    {
      expected: [expect1('A', 1, 0)],
      received: [inMessage('A', 10_000, 'p1', 'post A'), inMessage('A', 40_000, 'p2', 'post A')],
      hazards: [crashAt(20_000)],
      rule: 'resend-after-crash',
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'Slack: an event repeated in a different post (regrouped) is never a resend, whatever crashed',
    {
      expected: [expect1('A', 1, 0), expect1('B', 1, 0)],
      received: [
        inMessage('A', 10_000, 'p1', 'post A'),
        inMessage('A', 12_000, 'p2', 'post AB'),
        inMessage('B', 12_000, 'p2', 'post AB'),
      ],
      hazards: [crashAt(10_300)],
      rule: 'resend-after-crash',
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'Slack: a batch post with several issuers counts each change once',
    {
      expected: [expect1('I1|opened', 1, 0), expect1('I2|closed', 1, 0), expect1('I2|closed', 1, 0)],
      received: [
        inMessage('I1|opened', 10_000, 'p1', 'batch', 0),
        inMessage('I2|closed', 10_000, 'p1', 'batch', 0),
        inMessage('I2|closed', 10_000, 'p1', 'batch', 1),
      ],
      rule: 'resend-after-crash',
      want: { ok: true, missing: 0, invented: 0, duplicates: 0, explained: 0 },
    },
  ],
  [
    'e-mail: the same Message-ID twice is a resend a mail system drops, crash or not',
    {
      expected: [expect1('A', 1, 0)],
      received: [inMessage('A', 10_000, 'm1', '<d-1@x>'), inMessage('A', 90_000, 'm2', '<d-1@x>')],
      rule: 'same-message-id',
      want: { ok: true, missing: 0, invented: 0, duplicates: 1, explained: 1 },
    },
  ],
  [
    'e-mail: one event in two e-mails with different Message-IDs fails, whatever crashed',
    {
      expected: [expect1('A', 1, 0)],
      received: [inMessage('A', 10_000, 'm1', '<d-1@x>'), inMessage('A', 10_500, 'm2', '<d-2@x>')],
      hazards: [crashAt(10_200)],
      rule: 'same-message-id',
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'digest: a repeat in another period (another Message-ID) is a replay',
    {
      expected: [expect1('A', 1, 0)],
      received: [
        unit('A', 10_000, { group: 'p1', messageId: '<dg-1@x>', resendKey: '<dg-1@x>|A#0' }),
        unit('A', 14_000, { group: 'p2', messageId: '<dg-2@x>', resendKey: '<dg-2@x>|A#0' }),
      ],
      hazards: [crashAt(10_000)],
      rule: 'same-message-id',
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'webhook: the same event id twice fails even where another step expects its key',
    {
      expected: [expect1('A', 1, 0), expect1('A', 2, 50_000)],
      received: [
        unit('A', 10_000, { eventId: 'e1', resendKey: 'e1' }),
        unit('A', 60_000, { eventId: 'e1', resendKey: 'e1' }),
      ],
      hazards: [crashAt(10_300)],
      rule: 'never',
      want: { ok: false, missing: 1, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
];

describe('chaos oracle: what each channel received against what it must', () => {
  it.each(cases)('%s', (_name, c) => {
    const verdict = judge({
      name: 'test',
      channel: 'test',
      unitName: 'unit',
      expected: c.expected,
      received: { units: c.received, messages: 0, unreadable: [], inconsistent: [] },
      hazards: c.hazards ?? [],
      rule: c.rule ?? 'never',
    });
    expect({
      ok: verdict.ok,
      missing: verdict.missing.length,
      invented: verdict.invented.length,
      duplicates: verdict.duplicates.length,
      explained: verdict.duplicates.filter((d) => d.explainedBy !== undefined).length,
    }).toEqual(c.want);
  });

  it('counts acceptable resends by message', () => {
    const verdict = judge({
      name: 'desk',
      channel: 'desk',
      unitName: 'change',
      expected: [expect1('A', 1, 0), expect1('B', 1, 0)],
      received: {
        units: [
          inMessage('A', 10_000, 'p1', 'AB'),
          inMessage('B', 10_000, 'p1', 'AB'),
          inMessage('A', 15_000, 'p2', 'AB'),
          inMessage('B', 15_000, 'p2', 'AB'),
        ],
        messages: 2,
        unreadable: [],
        inconsistent: [],
      },
      hazards: [crashAt(10_100)],
      rule: 'resend-after-crash',
    });
    expect(resends(verdict)).toEqual({ messages: 1, units: 2 });
  });

  it('inconsistent delivery ids fail the verdict', () => {
    const verdict = judge({
      name: 'hook',
      channel: 'hook',
      unitName: 'event',
      expected: [],
      received: { units: [], messages: 0, unreadable: [], inconsistent: ['event e1 under d-1 and d-2'] },
      hazards: [],
      rule: 'never',
    });
    expect(verdict.ok).toBe(false);
  });

  it('expects one event, one change and one digest line per change', () => {
    const change = (issuerId: string, kind: 'opened' | 'closed') => ({
      issuerId,
      holder: 'H',
      holderKey: 'h',
      kind,
      from: kind === 'opened' ? null : 0.6,
      to: kind === 'opened' ? 0.6 : null,
    });
    const units = expectedUnits(
      [
        {
          step: 1,
          startedAt: 0,
          changes: [change('I1', 'opened'), change('I1', 'closed'), change('I2', 'opened')],
        },
      ],
      (id) => `Name of ${id}`,
    );
    expect(units.events.map((u) => u.key)).toEqual([
      'I1|h|opened|-|0.6',
      'I1|h|closed|0.6|-',
      'I2|h|opened|-|0.6',
    ]);
    expect(units.changes.map((u) => u.key)).toEqual(['I1|opened 0.60%', 'I1|closed', 'I2|opened 0.60%']);
    expect(units.changes.some((u) => u.optional)).toBe(false);
    expect(units.digest.map((u) => u.key)).toEqual([
      'Name of I1|opened 0.60%',
      'Name of I1|closed',
      'Name of I2|opened 0.60%',
    ]);
  });

  it('a close after a fall below 0.5% is optional on people channels, required in the digest', () => {
    const units = expectedUnits(
      [
        {
          step: 1,
          startedAt: 0,
          changes: [
            { issuerId: 'I1', holder: 'H', holderKey: 'h', kind: 'decreased', from: 0.6, to: 0.47 },
            { issuerId: 'I1', holder: 'H', holderKey: 'h', kind: 'closed', from: 0.47, to: null },
          ],
        },
      ],
      (id) => id,
    );
    expect(units.changes.map((u) => [u.key, u.optional ?? false])).toEqual([
      ['I1|decreased 0.60%>0.47%', false],
      ['I1|closed', true],
    ]);
    expect(units.digest.map((u) => u.key)).toEqual(['I1|decreased 0.60%>0.47%', 'I1|closed']);
  });
});
