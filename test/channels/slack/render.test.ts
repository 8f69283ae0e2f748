import { describe, expect, it } from 'vitest';
import {
  blockChars,
  renderSlack,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackPayload,
  type SlackRenderOptions,
  withinLimits,
} from '../../../src/channels/slack/index.js';
import type { Message } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import {
  backAbove,
  closedFinal,
  closedNoFinal,
  confirmed,
  cut,
  eventsOf,
  fellBelowListed,
  flap,
  opened,
  raised,
} from '../story-fixtures.js';

const header = (text: string): SlackBlock => ({
  type: 'header',
  text: { type: 'plain_text', text, emoji: true },
});
const section = (...lines: string[]): SlackBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: lines.join('\n') },
});
const context = (text: string): SlackBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text }] });

/**
 * One issuer's message as Slack shows it: the issuer once (the header), a line per holder, and a
 * context line with the id, the total and the disclosure date; the fallback text says the same.
 */
function issuerPayload(
  count: string,
  lines: string[],
  sentences: string[],
  contextLine: string,
): SlackPayload {
  return {
    text: [`Acme plc: ${count}`, ...sentences, contextLine].join('\n'),
    blocks: [header('Acme plc'), section(...lines), context(contextLine)],
  };
}

const LONG_NAME = `${'Long Name Holdings '.repeat(9)}plc`;

interface KindCase {
  name: string;
  events: PositionEvent[];
  line: string;
  sentence: string;
  context: string;
}

// Every message kind, in the order a trader reads it: who, what, old → new (change), the issuer's
// total before → after, and when it was disclosed.
const kindCases: KindCase[] = [
  {
    name: 'opened',
    events: [opened],
    line: ':new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · crossed 0.5%',
    sentence: 'Alpha Capital LLP opened 0.62% (+0.62 pp) on 2024-05-02; crossed 0.5%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 4.02% (+0.62 pp) · disclosed 2024-05-02',
  },
  {
    name: 'raised, crossing two thresholds',
    events: [raised],
    line: ':arrow_up: *Beta Partners* raised 0.95% → *2.10%* (+1.15 pp) · crossed 1%, 2%',
    sentence: 'Beta Partners raised 0.95% → 2.10% (+1.15 pp) on 2024-05-02; crossed 1%, 2%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 4.55% (+1.15 pp) · disclosed 2024-05-02',
  },
  {
    name: 'cut, crossing nothing',
    events: [cut],
    line: ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp)',
    sentence: 'Gamma Fund cut 1.30% → 1.25% (-0.05 pp) on 2024-05-02',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 3.35% (-0.05 pp) · disclosed 2024-05-02',
  },
  {
    name: 'fell below, by a cut the register lists',
    events: [fellBelowListed],
    line: ':arrow_down: *Delta AM* fell below the 0.5% disclosure threshold (0.47%), no longer public · 0.56% → *0.47%* (-0.09 pp) · crossed 0.5%',
    sentence:
      'Delta AM fell below the 0.5% disclosure threshold (0.47%), no longer public: 0.56% → 0.47% (-0.09 pp) on 2024-05-02; crossed 0.5%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 3.31% (-0.09 pp) · disclosed 2024-05-02',
  },
  {
    name: 'fell below, gone from the list, its last disclosure known',
    events: [closedFinal],
    line: ':white_circle: *Delta AM* fell below the 0.5% disclosure threshold (0.45%), no longer public · 0.55% → off the list at 0.45% (-0.10 pp) · crossed 0.5%',
    sentence:
      'Delta AM fell below the 0.5% disclosure threshold (0.45%), no longer public: 0.55% → off the list at 0.45% (-0.10 pp) on 2024-05-02; crossed 0.5%',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.85% (-0.55 pp); the total counts listed positions only: Delta AM's last listed 0.55% left the list with it · disclosed 2024-05-02",
  },
  {
    name: 'fell below, gone from the list, its last disclosure unknown',
    events: [closedNoFinal],
    line: ':white_circle: *Delta AM* fell below the 0.5% disclosure threshold, no longer public · 0.55% → off the list · crossed 0.5%',
    sentence:
      'Delta AM fell below the 0.5% disclosure threshold, no longer public: 0.55% → off the list; crossed 0.5%',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.85% (-0.55 pp); the total counts listed positions only: Delta AM's last listed 0.55% left the list with it",
  },
  {
    name: 'a fall below confirmed (channels with everyChange)',
    events: [confirmed],
    line: ':white_circle: *Delta AM* confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02 · 0.47% → off the list',
    sentence:
      'Delta AM confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02: 0.47% → off the list',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.93% (-0.47 pp); the total counts listed positions only: Delta AM's last listed 0.47% left the list with it",
  },
  {
    name: 'reopened: back above 0.5% after N days',
    events: [backAbove],
    line: ':new: *Delta AM* back above 0.5% after 12 days · *0.52%* (+0.52 pp) · crossed 0.5%',
    sentence: 'Delta AM back above 0.5% after 12 days: 0.52% (+0.52 pp) on 2024-05-14; crossed 0.5%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 3.92% (+0.52 pp) · disclosed 2024-05-14',
  },
  {
    name: 'a flap: one line with the sequence, every value in it',
    events: flap,
    line: ':left_right_arrow: *Flap Cap* crossed 0.5% 3 times · 0.52% → 0.47% → 0.51% → off the list at 0.48% (-0.04 pp) · crossed 0.5%',
    sentence:
      'Flap Cap crossed 0.5% 3 times: 0.52% → 0.47% → 0.51% → off the list at 0.48% (-0.04 pp) on 2024-05-03; crossed 0.5%',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.88% (-0.52 pp); the total counts listed positions only: Flap Cap's last listed 0.51% left the list with it · disclosed 2024-05-03",
  },
  {
    name: 'a total that includes changes this channel does not show says so',
    events: [{ ...cut, issuerTotal: { before: 3.4, after: 3.52 }, hidden: { count: 2, delta: 0.17 } }],
    line: ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp)',
    sentence: 'Gamma Fund cut 1.30% → 1.25% (-0.05 pp) on 2024-05-02',
    context:
      'ISS-1 · Issuer total disclosed short 3.40% → 3.52% (+0.12 pp, of which +0.17 pp in 2 changes not shown here) · disclosed 2024-05-02',
  },
];

describe('renderSlack: the exact text of each message kind', () => {
  it.each(kindCases)('$name', ({ events, line, sentence, context: contextLine }) => {
    const count = `${events.length} short position ${events.length === 1 ? 'change' : 'changes'}`;
    expect(renderSlack(eventsOf(...events))).toEqual([issuerPayload(count, [line], [sentence], contextLine)]);
  });
});

interface Case {
  name: string;
  message: Message;
  options?: SlackRenderOptions;
  expected: SlackPayload[];
}

const cases: Case[] = [
  {
    name: 'lines of different disclosure dates each carry theirs, and the context line none',
    message: eventsOf(
      { ...cut, current: { value: 1.25, date: '2024-05-01' }, issuerTotal: { before: 3.4, after: 3.97 } },
      { ...opened, issuerTotal: { before: 3.4, after: 3.97 } },
    ),
    expected: [
      issuerPayload(
        '2 short position changes',
        [
          ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp) · 2024-05-01',
          ':new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · 2024-05-02 · crossed 0.5%',
        ],
        [
          'Gamma Fund cut 1.30% → 1.25% (-0.05 pp) on 2024-05-01',
          'Alpha Capital LLP opened 0.62% (+0.62 pp) on 2024-05-02; crossed 0.5%',
        ],
        'ISS-1 · Issuer total disclosed short 3.40% → 3.97% (+0.57 pp)',
      ),
    ],
  },
  {
    name: 'hostile names are escaped everywhere',
    message: {
      type: 'events',
      issuer: { id: 'ISS-<2>', name: 'Smith & Sons <plc>' },
      events: [
        {
          ...opened,
          holder: '<!channel>',
          holderKey: 'a',
          issuer: { id: 'ISS-<2>', name: 'Smith & Sons <plc>' },
        },
        {
          ...cut,
          holder: '<script>&',
          holderKey: 'b',
          issuer: { id: 'ISS-<2>', name: 'Smith & Sons <plc>' },
          issuerTotal: { before: 3.4, after: 3.97 },
        },
      ],
    },
    expected: [
      {
        text: [
          'Smith &amp; Sons &lt;plc&gt;: 2 short position changes',
          '&lt;!channel&gt; opened 0.62% (+0.62 pp) on 2024-05-02; crossed 0.5%',
          '&lt;script&gt;&amp; cut 1.30% → 1.25% (-0.05 pp) on 2024-05-02',
          'ISS-&lt;2&gt; · Issuer total disclosed short 3.40% → 3.97% (+0.57 pp) · disclosed 2024-05-02',
        ].join('\n'),
        blocks: [
          header('Smith &amp; Sons &lt;plc&gt;'),
          section(
            ':new: *&lt;!channel&gt;* opened *0.62%* (+0.62 pp) · crossed 0.5%',
            ':arrow_down: *&lt;script&gt;&amp;* cut 1.30% → *1.25%* (-0.05 pp)',
          ),
          context(
            'ISS-&lt;2&gt; · Issuer total disclosed short 3.40% → 3.97% (+0.57 pp) · disclosed 2024-05-02',
          ),
        ],
      },
    ],
  },
  {
    name: 'a mention opens the text and the first section',
    message: eventsOf(opened),
    options: { mention: '<!here>' },
    expected: [
      {
        text: [
          '<!here> Acme plc: 1 short position change',
          'Alpha Capital LLP opened 0.62% (+0.62 pp) on 2024-05-02; crossed 0.5%',
          'ISS-1 · Issuer total disclosed short 3.40% → 4.02% (+0.62 pp) · disclosed 2024-05-02',
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section('<!here> :new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · crossed 0.5%'),
          context('ISS-1 · Issuer total disclosed short 3.40% → 4.02% (+0.62 pp) · disclosed 2024-05-02'),
        ],
      },
    ],
  },
  {
    name: 'a long issuer name is shortened in the header only',
    message: {
      type: 'events',
      issuer: { id: 'ISS-L', name: LONG_NAME },
      events: [{ ...cut, issuer: { id: 'ISS-L', name: LONG_NAME } }],
    },
    expected: [
      {
        text: [
          `${LONG_NAME}: 1 short position change`,
          'Gamma Fund cut 1.30% → 1.25% (-0.05 pp) on 2024-05-02',
          'ISS-L · Issuer total disclosed short 3.40% → 3.35% (-0.05 pp) · disclosed 2024-05-02',
        ].join('\n'),
        blocks: [
          // 149 characters kept (7 × 19 + 16), then the ellipsis: 150 in all.
          header(`${'Long Name Holdings '.repeat(7)}Long Name Holdin…`),
          section(':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp)'),
          context('ISS-L · Issuer total disclosed short 3.40% → 3.35% (-0.05 pp) · disclosed 2024-05-02'),
        ],
      },
    ],
  },
  {
    name: 'an events message without events renders nothing',
    message: eventsOf(),
    expected: [],
  },
  {
    name: 'a digest: issuers newest first, each issuer in the order things happened, no top movers in a short one',
    message: {
      type: 'digest',
      period: { from: '2024-05-01T06:30:00Z', to: '2024-05-02T06:30:00Z', timezone: 'Europe/London' },
      events: [
        { ...raised, detectedAt: '2024-05-01T09:00:00Z', issuerTotal: { before: 3.0, after: 4.15 } },
        {
          ...fellBelowListed,
          issuer: { id: 'ISS-2', name: 'Bolt & Nut AG' },
          detectedAt: '2024-05-01T08:00:00Z',
          issuerTotal: { before: 1.05, after: 0.96 },
        },
        { ...cut, detectedAt: '2024-05-02T06:00:00Z', issuerTotal: { before: 4.15, after: 4.1 } },
        {
          ...confirmed,
          issuer: { id: 'ISS-2', name: 'Bolt & Nut AG' },
          holder: 'Omega LP',
          holderKey: 'omega lp',
          detectedAt: '2024-05-01T12:00:00Z',
          issuerTotal: { before: 0.96, after: 0.49 },
        },
      ],
    },
    expected: [
      {
        text: 'Short positions digest, 1 May 07:30 – 2 May 07:30 (Europe/London): 4 short position changes in 2 issuers',
        blocks: [
          header('Short positions digest'),
          section(
            '*Period:* 1 May 2024 07:30 → 2 May 2024 07:30 (Europe/London) · 4 short position changes in 2 issuers',
          ),
          { type: 'divider' },
          section(
            '*Acme plc* (ISS-1) · total 3.00% → 4.10% (+1.10 pp) · disclosed 2024-05-02',
            ':arrow_up: *Beta Partners* raised 0.95% → *2.10%* (+1.15 pp) · crossed 1%, 2%',
            ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp)',
          ),
          { type: 'divider' },
          section(
            "*Bolt &amp; Nut AG* (ISS-2) · total 1.05% → 0.49% (-0.56 pp); the total counts listed positions only: Omega LP's last listed 0.47% left the list with it",
            ':arrow_down: *Delta AM* fell below the 0.5% disclosure threshold (0.47%), no longer public · 0.56% → *0.47%* (-0.09 pp) · 2024-05-02 · crossed 0.5%',
            ':white_circle: *Omega LP* confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02 · 0.47% → off the list',
          ),
        ],
      },
    ],
  },
  {
    name: 'an empty digest says nothing changed',
    message: {
      type: 'digest',
      period: { from: '2024-05-01T06:30:00Z', to: '2024-05-02T06:30:00Z', timezone: 'UTC' },
      events: [],
    },
    options: { mention: '<@U123>' },
    expected: [
      {
        text: '<@U123> Short positions digest, 1 May 06:30 – 2 May 06:30 (UTC): 0 short position changes in 0 issuers',
        blocks: [
          header('Short positions digest'),
          section(
            '<@U123> *Period:* 1 May 2024 06:30 → 2 May 2024 06:30 (UTC) · 0 short position changes in 0 issuers',
            'No short position changed in this period.',
          ),
        ],
      },
    ],
  },
  {
    name: 'a warning notice',
    message: {
      type: 'notice',
      key: 'issuer-missing-ISS-9',
      severity: 'warning',
      title: 'Issuer ISS-9 missing',
      text: 'Upstream answered 404 for <ISS-9> & polling of it stopped.',
    },
    expected: [
      {
        text: 'Warning: Issuer ISS-9 missing\nUpstream answered 404 for &lt;ISS-9&gt; &amp; polling of it stopped.',
        blocks: [
          header(':warning: Issuer ISS-9 missing'),
          section('Upstream answered 404 for &lt;ISS-9&gt; &amp; polling of it stopped.'),
        ],
      },
    ],
  },
  {
    name: 'a resolved notice',
    message: {
      type: 'notice',
      key: 'access-revoked',
      severity: 'resolved',
      title: 'API access restored',
      text: '',
    },
    expected: [
      { text: 'Resolved: API access restored', blocks: [header(':white_check_mark: API access restored')] },
    ],
  },
  {
    name: 'a test message is marked as such',
    message: { type: 'test', channel: 'desk', sentAt: '2024-05-02T07:31:00Z' },
    options: { timezone: 'Europe/London' },
    expected: [
      {
        text: 'shortwatch test message — not a real alert\nSent to channel desk at 2 May 2024 08:31 (Europe/London). No short position changed; nothing needs doing.',
        blocks: [
          header(':test_tube: shortwatch test message — not a real alert'),
          section(
            'Sent to channel *desk* at 2 May 2024 08:31 (Europe/London). No short position changed; nothing needs doing.',
          ),
        ],
      },
    ],
  },
];

describe('renderSlack', () => {
  it.each(cases)('$name', ({ message, options, expected }) => {
    expect(renderSlack(message, options)).toEqual(expected);
  });
});

/** Every section's text in a payload. */
function sectionTexts(payload: SlackPayload): string[] {
  return payload.blocks.flatMap((block) => (block.type === 'section' ? [block.text.text] : []));
}

function headerText(payload: SlackPayload): string | undefined {
  const first = payload.blocks[0];
  return first?.type === 'header' ? first.text.text : undefined;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function expectWithinLimits(payload: SlackPayload): void {
  expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
  expect(payload.text.length).toBeLessThanOrEqual(SLACK_LIMITS.fallbackText);
  expect(blockChars(payload.blocks)).toBeLessThanOrEqual(SLACK_LIMITS.blockChars);
  expect(headerText(payload)?.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
  for (const text of sectionTexts(payload)) expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
  expect(withinLimits(payload)).toBe(true);
}

describe('renderSlack splitting', () => {
  const holder = (i: number) => `Holder ${String(i).padStart(3, '0')} Capital Management & Co LLP`;
  const many = Array.from({ length: 120 }, (_, i) => ({
    ...raised,
    id: `ev-${i}`,
    holder: holder(i),
    holderKey: holder(i).toLowerCase(),
    // One poll's 120 raises: the issuer total moves by all of them.
    issuerTotal: { before: 3.4, after: 141.4 },
  }));
  const manyContext =
    'ISS-1 · Issuer total disclosed short 3.40% → 141.40% (+138.00 pp) · disclosed 2024-05-02';

  it('puts an issuer with 120 events into several payloads, each event exactly once', () => {
    const payloads = renderSlack(eventsOf(...many), { mention: '<!here>' });
    expect(payloads.length).toBeGreaterThan(1);
    const total = payloads.length;
    payloads.forEach((payload, index) => {
      expectWithinLimits(payload);
      expect(headerText(payload)).toBe(`Acme plc (${index + 1}/${total})`);
      expect(payload.text.startsWith('<!here> ')).toBe(index === 0);
      expect(sectionTexts(payload)[0]?.startsWith('<!here> ')).toBe(index === 0);
      expect(payload.blocks.at(-1)).toEqual(context(manyContext));
    });
    const sections = payloads.flatMap(sectionTexts).join('\n');
    const texts = payloads.map((payload) => payload.text).join('\n');
    for (let i = 0; i < many.length; i++) {
      const name = `*Holder ${String(i).padStart(3, '0')} Capital Management &amp; Co LLP*`;
      expect(count(sections, name)).toBe(1);
      expect(
        count(texts, `Holder ${String(i).padStart(3, '0')} Capital Management &amp; Co LLP raised`),
      ).toBe(1);
    }
  });

  it('splits a large digest with continued issuer headings and loses no event', () => {
    const issuers = ['Acme plc', 'Bolt AG', 'Crane SA'];
    const events = Array.from({ length: 300 }, (_, i) => ({
      ...raised,
      id: `ev-${i}`,
      holder: holder(i),
      holderKey: holder(i).toLowerCase(),
      issuer: { id: `ISS-${i % 3}`, name: issuers[i % 3] ?? '?' },
      detectedAt: new Date(Date.UTC(2024, 4, 2, 0, 0, i)).toISOString(),
    }));
    const payloads = renderSlack({
      type: 'digest',
      period: { from: '2024-05-01T00:00:00Z', to: '2024-05-02T00:00:00Z', timezone: 'UTC' },
      events,
    });
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expectWithinLimits(payload);
    const sections = payloads.flatMap(sectionTexts).join('\n');
    for (let i = 0; i < events.length; i++) {
      // The top movers line names some holders a second time, without the verb.
      const name = `Holder ${String(i).padStart(3, '0')} Capital Management &amp; Co LLP`;
      expect(count(sections, `:arrow_up: *${name}* raised`)).toBe(1);
    }
    expect(sections).toMatch(/^\*Crane SA\* \(ISS-2\) · total .* \(continued\)$/m);
  });

  it('keeps absurdly long upstream text within limits without losing it', () => {
    const text = `${'word & <more> '.repeat(1000)}end`;
    const payloads = renderSlack({ type: 'notice', key: 'k', severity: 'critical', title: 'Long', text });
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expectWithinLimits(payload);
    const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    // Pieces of one cut line may share a section, one per line.
    expect(payloads.flatMap(sectionTexts).join('').replaceAll('\n', '')).toBe(escaped);
  });

  it('keeps a 5,000-character holder name within limits', () => {
    const payloads = renderSlack(eventsOf({ ...opened, holder: 'X'.repeat(5000) }, cut));
    for (const payload of payloads) expectWithinLimits(payload);
    expect(payloads.flatMap(sectionTexts).join('\n')).toContain(':arrow_down: *Gamma Fund* cut');
  });
});
