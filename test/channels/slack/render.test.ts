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

const ACME = { id: 'ISS-1', name: 'Acme plc' };
const TOTAL_TEXT = 'Issuer total disclosed short: 3.40% → 3.52% (+0.12 pp)';

function event(fields: Partial<PositionEvent> & Pick<PositionEvent, 'kind' | 'holder'>): PositionEvent {
  return {
    id: `ev-${fields.holder}`,
    issuer: ACME,
    holderKey: fields.holder.toLowerCase(),
    previous: null,
    current: null,
    delta: 0,
    thresholdsCrossed: [],
    issuerTotal: { before: 3.4, after: 3.52 },
    detectedAt: '2024-05-02T07:31:00.000Z',
    ...fields,
  };
}

const opened = event({
  kind: 'opened',
  holder: 'Alpha Capital LLP',
  current: { value: 0.62, date: '2024-05-02' },
  delta: 0.62,
  thresholdsCrossed: [0.5],
});
const raised = event({
  kind: 'increased',
  holder: 'Beta Partners',
  previous: { value: 0.95, date: '2024-04-30' },
  current: { value: 2.1, date: '2024-05-02' },
  delta: 1.15,
  thresholdsCrossed: [1, 2],
});
const cut = event({
  kind: 'decreased',
  holder: 'Gamma Fund',
  previous: { value: 1.3, date: '2024-04-29' },
  current: { value: 1.25, date: '2024-05-02' },
  delta: -0.05,
});
const closedBase: Pick<PositionEvent, 'kind' | 'holder' | 'previous' | 'delta' | 'thresholdsCrossed'> = {
  kind: 'closed',
  holder: 'Delta AM',
  previous: { value: 0.55, date: '2024-04-28' },
  delta: -0.55,
  thresholdsCrossed: [0.5],
};
const closedFinal = event({ ...closedBase, final: { value: 0.45, date: '2024-05-02' } });
const closedNoFinal = event(closedBase);

const header = (text: string): SlackBlock => ({
  type: 'header',
  text: { type: 'plain_text', text, emoji: true },
});
const section = (...lines: string[]): SlackBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: lines.join('\n') },
});
const context = (text: string): SlackBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text }] });
const eventsOf = (...events: PositionEvent[]): Message => ({ type: 'events', issuer: ACME, events });

const LONG_NAME = `${'Long Name Holdings '.repeat(9)}plc`;

interface Case {
  name: string;
  message: Message;
  options?: SlackRenderOptions;
  expected: SlackPayload[];
}

const cases: Case[] = [
  {
    name: 'one opened',
    message: eventsOf(opened),
    expected: [
      {
        text: [
          'Acme plc: 1 short position change',
          'Alpha Capital LLP opened a short in Acme plc: 0.62% (2024-05-02); crossed 0.5%',
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section(
            '*Acme plc* (ISS-1) · 1 short position change',
            ':new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · 2024-05-02 · crossed 0.5%',
          ),
          context(TOTAL_TEXT),
        ],
      },
    ],
  },
  {
    name: 'a raised crossing two thresholds',
    message: eventsOf(raised),
    expected: [
      {
        text: [
          'Acme plc: 1 short position change',
          'Beta Partners raised its short in Acme plc to 2.10% (+1.15 pp, from 0.95%; 2024-05-02); crossed 1%, 2%',
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section(
            '*Acme plc* (ISS-1) · 1 short position change',
            ':arrow_up: *Beta Partners* raised 0.95% → *2.10%* (+1.15 pp) · 2024-05-02 · crossed 1%, 2%',
          ),
          context(TOTAL_TEXT),
        ],
      },
    ],
  },
  {
    name: 'a cut crossing nothing',
    message: eventsOf(cut),
    expected: [
      {
        text: [
          'Acme plc: 1 short position change',
          'Gamma Fund cut its short in Acme plc to 1.25% (-0.05 pp, from 1.30%; 2024-05-02)',
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section(
            '*Acme plc* (ISS-1) · 1 short position change',
            ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp) · 2024-05-02',
          ),
          context(TOTAL_TEXT),
        ],
      },
    ],
  },
  {
    name: 'a closed with its final disclosure',
    message: eventsOf(closedFinal),
    expected: [
      {
        text: [
          'Acme plc: 1 short position change',
          "Delta AM's short in Acme plc fell below the 0.5% public disclosure threshold (last disclosed 0.45% on 2024-05-02); crossed 0.5%",
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section(
            '*Acme plc* (ISS-1) · 1 short position change',
            ':white_circle: *Delta AM* closed · fell below the 0.5% disclosure threshold · last disclosed 0.45% on 2024-05-02 (was 0.55% on 2024-04-28) · crossed 0.5%',
          ),
          context(TOTAL_TEXT),
        ],
      },
    ],
  },
  {
    name: 'a closed without its final disclosure',
    message: eventsOf(closedNoFinal),
    expected: [
      {
        text: [
          'Acme plc: 1 short position change',
          "Delta AM's short in Acme plc fell below the 0.5% public disclosure threshold (last seen at 0.55% on 2024-04-28); crossed 0.5%",
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section(
            '*Acme plc* (ISS-1) · 1 short position change',
            ':white_circle: *Delta AM* closed · fell below the 0.5% disclosure threshold · last seen at 0.55% on 2024-04-28 · crossed 0.5%',
          ),
          context(TOTAL_TEXT),
        ],
      },
    ],
  },
  {
    name: 'hostile names are escaped everywhere',
    message: {
      type: 'events',
      issuer: { id: 'ISS-<2>', name: 'Smith & Sons <plc>' },
      events: [
        { ...opened, holder: '<!channel>', issuer: { id: 'ISS-<2>', name: 'Smith & Sons <plc>' } },
        { ...cut, holder: '<script>&', issuer: { id: 'ISS-<2>', name: 'Smith & Sons <plc>' } },
      ],
    },
    expected: [
      {
        text: [
          'Smith &amp; Sons &lt;plc&gt;: 2 short position changes',
          '&lt;!channel&gt; opened a short in Smith &amp; Sons &lt;plc&gt;: 0.62% (2024-05-02); crossed 0.5%',
          '&lt;script&gt;&amp; cut its short in Smith &amp; Sons &lt;plc&gt; to 1.25% (-0.05 pp, from 1.30%; 2024-05-02)',
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Smith &amp; Sons &lt;plc&gt;'),
          section(
            '*Smith &amp; Sons &lt;plc&gt;* (ISS-&lt;2&gt;) · 2 short position changes',
            ':new: *&lt;!channel&gt;* opened *0.62%* (+0.62 pp) · 2024-05-02 · crossed 0.5%',
            ':arrow_down: *&lt;script&gt;&amp;* cut 1.30% → *1.25%* (-0.05 pp) · 2024-05-02',
          ),
          context(TOTAL_TEXT),
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
          'Alpha Capital LLP opened a short in Acme plc: 0.62% (2024-05-02); crossed 0.5%',
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          header('Acme plc'),
          section(
            '<!here> *Acme plc* (ISS-1) · 1 short position change',
            ':new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · 2024-05-02 · crossed 0.5%',
          ),
          context(TOTAL_TEXT),
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
          `Gamma Fund cut its short in ${LONG_NAME} to 1.25% (-0.05 pp, from 1.30%; 2024-05-02)`,
          TOTAL_TEXT,
        ].join('\n'),
        blocks: [
          // 149 characters kept (7 × 19 + 16), then the ellipsis: 150 in all.
          header(`${'Long Name Holdings '.repeat(7)}Long Name Holdin…`),
          section(
            `*${LONG_NAME}* (ISS-L) · 1 short position change`,
            ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp) · 2024-05-02',
          ),
          context(TOTAL_TEXT),
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
    name: 'a digest groups issuers, newest first',
    message: {
      type: 'digest',
      period: { from: '2024-05-01T06:30:00Z', to: '2024-05-02T06:30:00Z', timezone: 'Europe/London' },
      events: [
        { ...raised, detectedAt: '2024-05-01T09:00:00Z', issuerTotal: { before: 3.0, after: 3.4 } },
        {
          ...closedFinal,
          issuer: { id: 'ISS-2', name: 'Bolt & Nut AG' },
          detectedAt: '2024-05-01T12:00:00Z',
          issuerTotal: { before: 1.05, after: 0.5 },
        },
        { ...cut, detectedAt: '2024-05-02T06:00:00Z', issuerTotal: { before: 3.4, after: 3.35 } },
      ],
    },
    expected: [
      {
        text: 'Short positions digest, 1 May 2024 07:30 → 2 May 2024 07:30 (Europe/London): 3 short position changes in 2 issuers',
        blocks: [
          header('Short positions digest'),
          section(
            '*Period:* 1 May 2024 07:30 → 2 May 2024 07:30 (Europe/London) · 3 short position changes in 2 issuers',
            '*Top movers:* :arrow_up: *Beta Partners* in Acme plc +1.15 pp · :arrow_down: *Gamma Fund* in Acme plc -0.05 pp',
          ),
          { type: 'divider' },
          section(
            '*Acme plc* · total 3.00% → 3.35% (+0.35 pp)',
            ':arrow_down: *Gamma Fund* cut 1.30% → *1.25%* (-0.05 pp) · 2024-05-02',
            ':arrow_up: *Beta Partners* raised 0.95% → *2.10%* (+1.15 pp) · 2024-05-02 · crossed 1%, 2%',
          ),
          { type: 'divider' },
          section(
            '*Bolt &amp; Nut AG* · total 1.05% → 0.50% (-0.55 pp)',
            ':white_circle: *Delta AM* closed · fell below the 0.5% disclosure threshold · last disclosed 0.45% on 2024-05-02 (was 0.55% on 2024-04-28) · crossed 0.5%',
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
        text: '<@U123> Short positions digest, 1 May 2024 06:30 → 2 May 2024 06:30 (UTC): 0 short position changes in 0 issuers',
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
  const many = Array.from({ length: 120 }, (_, i) => ({ ...raised, id: `ev-${i}`, holder: holder(i) }));

  it('puts an issuer with 120 events into several payloads, each event exactly once', () => {
    const payloads = renderSlack(eventsOf(...many), { mention: '<!here>' });
    expect(payloads.length).toBeGreaterThan(1);
    const total = payloads.length;
    payloads.forEach((payload, index) => {
      expectWithinLimits(payload);
      expect(headerText(payload)).toBe(`Acme plc (${index + 1}/${total})`);
      expect(payload.text.startsWith('<!here> ')).toBe(index === 0);
      expect(sectionTexts(payload)[0]?.startsWith('<!here> ')).toBe(index === 0);
      expect(payload.blocks.at(-1)).toEqual(context(TOTAL_TEXT));
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
    expect(sections).toContain('*Crane SA* · total 3.40% → 3.52% (+0.12 pp) (continued)');
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
