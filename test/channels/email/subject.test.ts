import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/channels/email/render.js';
import type { Message } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import {
  ACME,
  backAbove,
  closedFinal,
  closedNoFinal,
  confirmed,
  cut,
  event,
  fellBelowListed,
  flap,
  opened,
  raised,
} from '../story-fixtures.js';

// The subject of every kind of story: what happened, who, which issuer (kept for rules and search;
// the thread rides on References). And the total under the holder lines: honest about what it counts.

const UTC = { timezone: 'UTC' };
const subjectOf = (events: PositionEvent[]) =>
  renderEmail({ type: 'events', issuer: ACME, events }, UTC).subject;

/** Two changes of one holder that never cross 0.5%: a held sequence without a threshold story. */
const steps: PositionEvent[] = [
  event({
    kind: 'decreased',
    holder: 'Gamma Fund',
    previous: { value: 1.3, date: '2024-05-01' },
    current: { value: 1.25, date: '2024-05-02' },
    delta: -0.05,
    detectedAt: '2024-05-02T07:31:00.000Z',
  }),
  event({
    kind: 'decreased',
    holder: 'Gamma Fund',
    previous: { value: 1.25, date: '2024-05-02' },
    current: { value: 1.2, date: '2024-05-03' },
    delta: -0.05,
    detectedAt: '2024-05-02T07:41:00.000Z',
  }),
];
const openedToo = event({ ...opened, holder: 'Omega LP', holderKey: 'omega lp' });

describe('e-mail subjects say what happened', () => {
  it.each<[string, PositionEvent[], string]>([
    ['opened', [opened], 'Alpha Capital LLP opened 0.62% in Acme plc'],
    ['raised', [raised], 'Beta Partners raised Acme plc to 2.10% (+1.15 pp)'],
    ['cut', [cut], 'Gamma Fund cut Acme plc to 1.25% (-0.05 pp)'],
    ['fell below, still listed', [fellBelowListed], 'Delta AM fell below 0.5% in Acme plc (0.56% → 0.47%)'],
    [
      'fell below, off the list at its last value',
      [closedFinal],
      'Delta AM fell below 0.5% in Acme plc (0.55% → off the list at 0.45%)',
    ],
    [
      'fell below, last value unknown',
      [closedNoFinal],
      'Delta AM fell below 0.5% in Acme plc (0.55% → off the list)',
    ],
    [
      'a fall below confirmed',
      [confirmed],
      'Delta AM confirmed off the list in Acme plc (below 0.5% since 2024-05-02)',
    ],
    ['back above', [backAbove], 'Delta AM back above 0.5% in Acme plc at 0.52%'],
    [
      'a held flap: one holder across 0.5% three times',
      flap,
      'Flap Cap: crossed 0.5% 3 times in Acme plc (0.52% → 0.47% → 0.51% → off the list at 0.48%)',
    ],
    [
      'a held sequence that crosses nothing',
      steps,
      'Gamma Fund: 2 changes in Acme plc (1.30% → 1.25% → 1.20%)',
    ],
    [
      'several holders: the count and what they were',
      [opened, openedToo, closedFinal],
      '3 changes in Acme plc: 2 openings, 1 fall below 0.5%',
    ],
    [
      'several holders, one of them a sequence',
      [cut, ...flap, backAbove],
      '5 changes in Acme plc: 1 cut, 1 return above 0.5%, 1 holder with 3 changes',
    ],
  ])('%s', (_, events, subject) => {
    expect(subjectOf(events)).toBe(subject);
  });

  it('a digest counts its changes by kind', () => {
    const digest: Message = {
      type: 'digest',
      period: { from: '2024-05-01T07:30:00.000Z', to: '2024-05-02T07:30:00.000Z', timezone: 'UTC' },
      events: [opened, openedToo, closedFinal],
    };
    expect(renderEmail(digest, UTC).subject).toBe(
      'Short positions digest: 3 changes (2 openings, 1 fall below 0.5%), 1 May 07:30 – 2 May 07:30 (UTC)',
    );
  });
});

/** The text part's lines from the total on, up to the footer. */
function totalPart(events: PositionEvent[]): string[] {
  const text = renderEmail({ type: 'events', issuer: ACME, events }, UTC).text.split('\n');
  const from = text.findIndex((line) => line.startsWith('Total disclosed short'));
  return text.slice(from, text.indexOf('', from));
}

describe('one honest total', () => {
  // Hawk cuts 3.00% → 0.61%; Vireo falls off the list at 0.42% from 0.72%: the lines say -2.39 and
  // -0.30 pp, the listed total loses 3.11 pp (Vireo's whole 0.72% is no longer listed).
  const hawk = event({
    kind: 'decreased',
    holder: 'Hawk',
    previous: { value: 3, date: '2024-05-01' },
    current: { value: 0.61, date: '2024-05-02' },
    delta: -2.39,
    issuerTotal: { before: 5, after: 1.89 },
  });
  const vireo = (previous: number, final: number, issuerTotal: PositionEvent['issuerTotal']) =>
    event({
      kind: 'closed',
      holder: 'Vireo',
      previous: { value: previous, date: '2024-05-01' },
      final: { value: final, date: '2024-05-02' },
      delta: -previous,
      thresholdsCrossed: [0.5],
      story: { kind: 'fell-below' },
      issuerTotal,
    });

  it('-2.39 pp and -0.30 pp under -3.11 pp: a footnote says where the rest went', () => {
    expect(totalPart([hawk, vireo(0.72, 0.42, { before: 5, after: 1.89 })])).toEqual([
      'Total disclosed short in Acme plc: 5.00% → 1.89% (-3.11 pp)',
      "The total counts listed positions only: Vireo's last listed 0.72% left the list with it.",
    ]);
  });

  it('-0.07 pp under -0.54 pp on a channel with no filter: the rest was told earlier', () => {
    // Three polls: Kite +0.01 (2.00% → 2.01%), Lark -0.03 (told in an earlier message), Vireo 0.52% → 0.45%.
    const kite = event({
      kind: 'increased',
      holder: 'Kite',
      previous: { value: 1, date: '2024-05-01' },
      current: { value: 1.01, date: '2024-05-02' },
      delta: 0.01,
      issuerTotal: { before: 2, after: 2.01 },
      detectedAt: '2024-05-02T07:00:00.000Z',
    });
    expect(totalPart([kite, vireo(0.52, 0.45, { before: 1.98, after: 1.46 })])).toEqual([
      'Total disclosed short in Acme plc: 2.00% → 1.46% (-0.54 pp, of which -0.03 pp told earlier)',
      "The total counts listed positions only: Vireo's last listed 0.52% left the list with it.",
    ]);
  });

  it('-0.07 pp under -0.54 pp where a mute hid a change: "not shown here", nothing told earlier', () => {
    const hidden = { ...vireo(0.52, 0.45, { before: 2, after: 1.46 }), hidden: { count: 1, delta: -0.02 } };
    expect(totalPart([hidden])).toEqual([
      'Total disclosed short in Acme plc: 2.00% → 1.46% (-0.54 pp, of which -0.02 pp in 1 change not shown here)',
      "The total counts listed positions only: Vireo's last listed 0.52% left the list with it.",
    ]);
  });

  it('lines that add up get no footnote', () => {
    const alone = { ...hawk, issuerTotal: { before: 5, after: 2.61 } };
    expect(totalPart([alone])).toEqual(['Total disclosed short in Acme plc: 5.00% → 2.61% (-2.39 pp)']);
  });
});
