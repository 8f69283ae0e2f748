import { describe, expect, it } from 'vitest';
import type { Hazard } from './faults.js';
import { type ExpectedUnit, expectedUnits, judge } from './oracle.js';
import type { Unit } from './received.js';

const unit = (key: string, at: number, extra: Partial<Unit> = {}): Unit => ({ key, at, ...extra });
const expect1 = (key: string, step: number, startedAt: number): ExpectedUnit => ({ key, step, startedAt });

const crashAt = (at: number): Hazard => ({ from: at, to: at, what: `crash at ${at}` });

interface Case {
  expected: ExpectedUnit[];
  received: Unit[];
  hazards?: Hazard[];
  exactlyOnce?: boolean;
  want: { ok: boolean; missing: number; invented: number; duplicates: number; explained: number };
}

const cases: Array<[string, Case]> = [
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
    'a repeat with no crash near the first copy is a duplicate',
    {
      expected: [expect1('A', 1, 0)],
      received: [unit('A', 10_000), unit('A', 40_000)],
      hazards: [crashAt(20_000)],
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'a repeat after a crash right after the first copy is an at-least-once resend',
    {
      expected: [expect1('A', 1, 0)],
      received: [unit('A', 10_000), unit('A', 45_000)],
      hazards: [crashAt(10_300)],
      want: { ok: true, missing: 0, invented: 0, duplicates: 1, explained: 1 },
    },
  ],
  [
    'on an exactly-once channel even an explained repeat fails',
    {
      expected: [expect1('A', 1, 0)],
      received: [unit('A', 10_000), unit('A', 45_000)],
      hazards: [crashAt(10_300)],
      exactlyOnce: true,
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 1 },
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
    'a repeat in another digest period is a replay, never explained by a crash',
    {
      expected: [expect1('A', 1, 0)],
      received: [unit('A', 10_000, { group: 'p1' }), unit('A', 14_000, { group: 'p2' })],
      hazards: [crashAt(10_000)],
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'a resend is matched to the earlier copy that says the same, not to the latest with its key',
    {
      expected: [expect1('A', 1, 0), expect1('A', 2, 50_000)],
      received: [
        unit('A', 10_000, { content: 'step 1' }),
        unit('A', 55_000, { content: 'step 2' }),
        unit('A', 60_000, { content: 'step 1' }),
      ],
      hazards: [crashAt(10_500)],
      want: { ok: true, missing: 0, invented: 0, duplicates: 1, explained: 1 },
    },
  ],
  [
    'a repeat of a key with other content is no resend, whatever crashed nearby',
    {
      expected: [expect1('A', 1, 0)],
      received: [unit('A', 10_000, { content: 'one' }), unit('A', 12_000, { content: 'two' })],
      hazards: [crashAt(10_500)],
      want: { ok: false, missing: 0, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
  [
    'the same event id twice is a duplicate even where another step expects its key',
    {
      expected: [expect1('A', 1, 0), expect1('A', 2, 50_000)],
      received: [unit('A', 10_000, { eventId: 'e1' }), unit('A', 60_000, { eventId: 'e1' })],
      exactlyOnce: true,
      want: { ok: false, missing: 1, invented: 0, duplicates: 1, explained: 0 },
    },
  ],
];

describe('chaos oracle: what each channel received against what it must', () => {
  it.each(cases)('%s', (_name, c) => {
    const verdict = judge({
      channel: 'test',
      unitName: 'unit',
      expected: c.expected,
      received: { units: c.received, unreadable: [] },
      hazards: c.hazards ?? [],
      exactlyOnce: c.exactlyOnce ?? false,
    });
    expect({
      ok: verdict.ok,
      missing: verdict.missing.length,
      invented: verdict.invented.length,
      duplicates: verdict.duplicates.length,
      explained: verdict.duplicates.filter((d) => d.explainedBy !== undefined).length,
    }).toEqual(c.want);
  });

  it('expects one message per issuer and step, one event and one digest line per change', () => {
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
    expect(units.messages.map((u) => u.key)).toEqual(['I1|closed + opened 0.60%', 'I2|opened 0.60%']);
    expect(units.digest.map((u) => u.key)).toEqual([
      'Name of I1|opened 0.60%',
      'Name of I1|closed',
      'Name of I2|opened 0.60%',
    ]);
  });
});
