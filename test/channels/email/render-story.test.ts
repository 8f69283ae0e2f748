import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/channels/email/render.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import {
  ACME,
  backAbove,
  closedFinal,
  closedNoFinal,
  confirmed,
  cut,
  fellBelowListed,
  flap,
} from '../story-fixtures.js';

// The threshold stories and the sequences of one holder, as e-mail tells them: the fixtures are
// Slack's and Teams' (../story-fixtures.ts), so that every channel is held to the same facts.

const LONDON = { timezone: 'Europe/London' };
const BELOW_NOTE =
  'Below 0.5%: a position under the 0.5% public disclosure threshold is no longer published; it is not known to be covered.';

/** The text of every data cell of the html, in order (a sequence's steps sit in spans: tags dropped). */
function cellsOf(html: string): string[] {
  return [...html.matchAll(/<td class="sw-td[^"]*"[^>]*>(.*?)<\/td>/g)].map((m) =>
    (m[1] ?? '').replace(/<[^>]+>/g, ''),
  );
}

/** The text of every paragraph of the html, tags inside it dropped. */
function paragraphsOf(html: string): string[] {
  return [...html.matchAll(/<p(?:\s[^>]*)?>(.*?)<\/p>/g)].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, ''));
}

/** The text part of an events e-mail: headline, one line per holder, total, the note when one applies. */
function textOf(c: StoryCase, detected: string): string {
  const { headline, lines, total, note, footnote } = c;
  return [
    headline,
    '',
    ...lines,
    '',
    `Total disclosed short in Acme plc: ${total}`,
    ...(footnote ? [footnote] : []),
    ...(note ? ['', BELOW_NOTE] : []),
    '',
    '--',
    `shortwatch · issuer ISS-1 · detected ${detected} (Europe/London)`,
    '',
  ].join('\n');
}

interface StoryCase {
  name: string;
  events: PositionEvent[];
  subject: string;
  /** Why the lines cannot add up to the total, when they cannot. */
  footnote?: string;
  headline: string;
  lines: string[];
  total: string;
  note: boolean;
  detected?: string;
  cells: string[];
}

const cases: StoryCase[] = [
  {
    name: 'fell below, by a cut the register lists',
    subject: 'Delta AM fell below 0.5% in Acme plc (0.56% → 0.47%)',
    events: [fellBelowListed],
    headline:
      "Delta AM's short in Acme plc fell below the 0.5% disclosure threshold (0.47%), no longer public",
    lines: [
      '* Delta AM fell below the 0.5% disclosure threshold (0.47%), no longer public: 0.56% → 0.47% (-0.09 pp) on 2024-05-02',
      '  Thresholds crossed: 0.5%',
    ],
    total: '3.40% → 3.31% (-0.09 pp)',
    note: true,
    cells: [
      'Delta AM',
      'fell below the 0.5% disclosure threshold (0.47%), no longer public',
      '0.56% → 0.47%',
      '-0.09 pp',
      '2024-05-02',
      '0.5%',
    ],
  },
  {
    name: 'fell below, gone from the list, its last disclosure known',
    subject: 'Delta AM fell below 0.5% in Acme plc (0.55% → off the list at 0.45%)',
    footnote: "The total counts listed positions only: Delta AM's last listed 0.55% left the list with it.",
    events: [closedFinal],
    headline:
      "Delta AM's short in Acme plc fell below the 0.5% disclosure threshold (0.45%), no longer public",
    lines: [
      '* Delta AM fell below the 0.5% disclosure threshold (0.45%), no longer public: 0.55% → off the list at 0.45% (-0.10 pp) on 2024-05-02',
      '  Thresholds crossed: 0.5%',
    ],
    total: '3.40% → 2.85% (-0.55 pp)',
    note: true,
    cells: [
      'Delta AM',
      'fell below the 0.5% disclosure threshold (0.45%), no longer public',
      '0.55% → off the list at 0.45%',
      '-0.10 pp',
      '2024-05-02',
      '0.5%',
    ],
  },
  {
    name: 'fell below, gone from the list, its last disclosure unknown',
    subject: 'Delta AM fell below 0.5% in Acme plc (0.55% → off the list)',
    footnote: "The total counts listed positions only: Delta AM's last listed 0.55% left the list with it.",
    events: [closedNoFinal],
    headline: "Delta AM's short in Acme plc fell below the 0.5% disclosure threshold, no longer public",
    lines: [
      '* Delta AM fell below the 0.5% disclosure threshold, no longer public: 0.55% → off the list',
      '  Thresholds crossed: 0.5%',
    ],
    total: '3.40% → 2.85% (-0.55 pp)',
    note: true,
    cells: [
      'Delta AM',
      'fell below the 0.5% disclosure threshold, no longer public',
      '0.55% → off the list',
      '—',
      '—',
      '0.5%',
    ],
  },
  {
    name: 'a fall below confirmed',
    subject: 'Delta AM confirmed off the list in Acme plc (below 0.5% since 2024-05-02)',
    footnote: "The total counts listed positions only: Delta AM's last listed 0.47% left the list with it.",
    events: [confirmed],
    headline:
      "Delta AM's short in Acme plc is no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02",
    lines: [
      '* Delta AM confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02: 0.47% → off the list',
    ],
    total: '3.40% → 2.93% (-0.47 pp)',
    note: true,
    cells: [
      'Delta AM',
      'confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02',
      '0.47% → off the list',
      '—',
      '—',
      '—',
    ],
  },
  {
    name: 'reopened: back above 0.5% after N days',
    // E-mail dates its subject and footer by detection: the return above is seen on the day it is disclosed.
    events: [{ ...backAbove, detectedAt: '2024-05-14T07:31:00.000Z' }],
    subject: 'Delta AM back above 0.5% in Acme plc at 0.52%',
    headline: 'Delta AM is back above 0.5% after 12 days in Acme plc (0.52%)',
    lines: [
      '* Delta AM back above 0.5% after 12 days: 0.52% (+0.52 pp) on 2024-05-14',
      '  Thresholds crossed: 0.5%',
    ],
    total: '3.40% → 3.92% (+0.52 pp)',
    note: false,
    detected: '14 May 2024 08:31',
    cells: ['Delta AM', 'back above 0.5% after 12 days', '0.52%', '+0.52 pp', '2024-05-14', '0.5%'],
  },
  {
    name: 'a flap: three changes of one holder in one row, every value in it',
    subject: 'Flap Cap: crossed 0.5% 3 times in Acme plc (0.52% → 0.47% → 0.51% → off the list at 0.48%)',
    footnote: "The total counts listed positions only: Flap Cap's last listed 0.51% left the list with it.",
    events: flap,
    headline: '3 changes in Acme plc',
    lines: [
      '* Flap Cap crossed 0.5% 3 times: 0.52% → 0.47% → 0.51% → off the list at 0.48% (-0.04 pp) on 2024-05-03',
      '  Thresholds crossed: 0.5%',
    ],
    total: '3.40% → 2.88% (-0.52 pp)',
    note: true,
    detected: '2 May 2024 08:33',
    cells: [
      'Flap Cap',
      'crossed 0.5% 3 times',
      '0.52% → 0.47% → 0.51% → off the list at 0.48%',
      '-0.04 pp',
      '2024-05-03',
      '0.5%',
    ],
  },
  {
    name: 'a total that includes changes this channel does not show says so',
    subject: 'Gamma Fund cut Acme plc to 1.25% (-0.05 pp)',
    events: [{ ...cut, issuerTotal: { before: 3.4, after: 3.52 }, hidden: { count: 2, delta: 0.17 } }],
    headline: 'Gamma Fund cut its short in Acme plc to 1.25% (-0.05 pp)',
    lines: ['* Gamma Fund cut 1.30% → 1.25% (-0.05 pp) on 2024-05-02'],
    total: '3.40% → 3.52% (+0.12 pp, of which +0.17 pp in 2 changes not shown here)',
    note: false,
    cells: ['Gamma Fund', 'cut', '1.30% → 1.25%', '-0.05 pp', '2024-05-02', '—'],
  },
];

describe('renderEmail: threshold stories and sequences, exact subject, text and html rows', () => {
  it.each(cases)('$name', (c) => {
    const { events, subject, total, note, footnote, detected, cells } = c;
    const email = renderEmail({ type: 'events', issuer: ACME, events }, LONDON);
    expect(email.subject).toBe(subject);
    expect(email.text).toBe(textOf(c, detected ?? '2 May 2024 08:31'));
    expect(cellsOf(email.html)).toEqual(cells);
    expect(paragraphsOf(email.html)).toEqual([
      `Total disclosed short in Acme plc: ${total}`,
      ...(footnote ? [footnote.replaceAll("'", '&#39;')] : []),
      ...(note ? [BELOW_NOTE] : []),
    ]);
  });
});

describe('renderEmail: a long sequence on a phone', () => {
  // Six values would overflow 375 px on one line: the cell may wrap between steps, never inside one.
  const values = [0.52, 0.47, 0.53, 0.48, 0.54, 0.49, 0.55];
  const steps = values.slice(1).map((value, i) => {
    const previous = values[i] ?? 0;
    return {
      ...flap[0],
      id: `step-${i}`,
      kind: value > previous ? 'increased' : 'decreased',
      previous: { value: previous, date: `2024-05-0${i + 1}` },
      current: { value, date: `2024-05-0${i + 2}` },
      delta: Math.round((value - previous) * 100) / 100,
      detectedAt: `2024-05-02T07:3${i}:00.000Z`,
    } as PositionEvent;
  });

  it('keeps each step whole, arrow with its value, and lets the line break between them', () => {
    const { html } = renderEmail({ type: 'events', issuer: ACME, events: steps }, LONDON);
    const cell = /<td class="sw-td sw-value"[^>]*>(.*?)<\/td>/.exec(html)?.[1] ?? '';
    const kept = [...cell.matchAll(/<span style="white-space:nowrap">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(kept).toEqual(['0.52%', '→ 0.47%', '→ 0.53%', '→ 0.48%', '→ 0.54%', '→ 0.49%', '→ 0.55%']);
    expect(cell.startsWith('<span style="white-space:normal">')).toBe(true);
  });

  it('a sequence of up to four values stays on one line, as any old → new does', () => {
    const { html } = renderEmail({ type: 'events', issuer: ACME, events: steps.slice(0, 3) }, LONDON);
    const cell = /<td class="sw-td sw-value"[^>]*>(.*?)<\/td>/.exec(html)?.[1] ?? '';
    expect(cell).toBe('0.52% → 0.47% → 0.53% → 0.48%');
  });
});
