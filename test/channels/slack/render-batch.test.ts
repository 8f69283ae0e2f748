import { describe, expect, it } from 'vitest';
import {
  renderSlack,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackPayload,
  type SlackRenderOptions,
  withinLimits,
} from '../../../src/channels/slack/index.js';
import type { BatchMessage, IssuerEvents, IssuerRef } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';

const ACME: IssuerRef = { id: 'ISS-1', name: 'Acme plc' };
const BOLT: IssuerRef = { id: 'ISS-<2>', name: 'Bolt & Nut AG' };

function event(
  issuer: IssuerRef,
  fields: Partial<PositionEvent> & Pick<PositionEvent, 'holder'>,
): PositionEvent {
  return {
    id: `ev-${issuer.id}-${fields.holder}`,
    kind: 'increased',
    issuer,
    holderKey: fields.holder.toLowerCase(),
    previous: { value: 0.95, date: '2024-04-30' },
    current: { value: 1.1, date: '2024-05-02' },
    delta: 0.15,
    thresholdsCrossed: [1],
    issuerTotal: { before: 3.4, after: 3.55 },
    detectedAt: '2024-05-02T07:31:00.000Z',
    ...fields,
  };
}

const acmeRaised = event(ACME, { holder: 'Beta Partners' });
const acmeOpened = event(ACME, {
  holder: 'Alpha Capital LLP',
  kind: 'opened',
  previous: null,
  current: { value: 0.62, date: '2024-05-02' },
  delta: 0.62,
  thresholdsCrossed: [0.5],
});
const boltClosed = event(BOLT, {
  holder: '<!channel>',
  kind: 'closed',
  previous: { value: 0.55, date: '2024-04-28' },
  current: null,
  final: { value: 0.45, date: '2024-05-02' },
  delta: -0.55,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 1.05, after: 0.5 },
});

const header = (text: string): SlackBlock => ({
  type: 'header',
  text: { type: 'plain_text', text, emoji: true },
});
const section = (...lines: string[]): SlackBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: lines.join('\n') },
});
const divider: SlackBlock = { type: 'divider' };
const batch = (...groups: IssuerEvents[]): BatchMessage => ({ type: 'batch', groups });

// Every line of a section shares its disclosure date: the issuer's heading states it once.
const ACME_RAISED_LINE = ':arrow_up: *Beta Partners* raised 0.95% → *1.10%* (+0.15 pp) · crossed 1%';
const ACME_OPENED_LINE = ':new: *Alpha Capital LLP* opened *0.62%* (+0.62 pp) · crossed 0.5%';
const BOLT_CLOSED_LINE =
  ':white_circle: *&lt;!channel&gt;* fell below the 0.5% disclosure threshold (0.45%), no longer public · 0.55% → off the list at 0.45% (-0.10 pp) · crossed 0.5%';
const BOLT_HEADING =
  "*Bolt &amp; Nut AG* (ISS-&lt;2&gt;) · total 1.05% → 0.50% (-0.55 pp); the total counts listed positions only: &lt;!channel&gt;'s last listed 0.55% left the list with it · disclosed 2024-05-02";

interface Case {
  name: string;
  message: BatchMessage;
  options?: SlackRenderOptions;
  expected: SlackPayload[];
}

const cases: Case[] = [
  {
    name: 'two issuers: a section each under a heading, events in the given order, names escaped',
    message: batch(
      {
        issuer: ACME,
        // One poll: both events carry the issuer total that moved by both.
        events: [acmeRaised, acmeOpened].map((e) => ({ ...e, issuerTotal: { before: 3.4, after: 4.17 } })),
      },
      { issuer: BOLT, events: [boltClosed] },
    ),
    expected: [
      {
        text: '3 short position changes in 2 issuers: Acme plc, Bolt &amp; Nut AG',
        blocks: [
          header('Short position changes in 2 issuers'),
          section(
            '*Acme plc* (ISS-1) · total 3.40% → 4.17% (+0.77 pp) · disclosed 2024-05-02',
            ACME_RAISED_LINE,
            ACME_OPENED_LINE,
          ),
          divider,
          section(BOLT_HEADING, BOLT_CLOSED_LINE),
        ],
      },
    ],
  },
  {
    name: 'a mention opens the text and the first section',
    message: batch({ issuer: BOLT, events: [boltClosed] }, { issuer: ACME, events: [acmeRaised] }),
    options: { mention: '<!here>' },
    expected: [
      {
        text: '<!here> 2 short position changes in 2 issuers: Bolt &amp; Nut AG, Acme plc',
        blocks: [
          header('Short position changes in 2 issuers'),
          section(`<!here> ${BOLT_HEADING}`, BOLT_CLOSED_LINE),
          divider,
          section(
            '*Acme plc* (ISS-1) · total 3.40% → 3.55% (+0.15 pp) · disclosed 2024-05-02',
            ACME_RAISED_LINE,
          ),
        ],
      },
    ],
  },
  {
    name: 'events from two refreshes: the total runs from the oldest before to the newest after',
    message: batch(
      {
        issuer: ACME,
        events: [
          { ...acmeRaised, issuerTotal: { before: 3.4, after: 3.55 } },
          {
            ...acmeOpened,
            issuerTotal: { before: 3.55, after: 4.17 },
            detectedAt: '2024-05-02T08:31:00.000Z',
          },
        ],
      },
      { issuer: BOLT, events: [boltClosed] },
    ),
    expected: [
      {
        text: '3 short position changes in 2 issuers: Acme plc, Bolt &amp; Nut AG',
        blocks: [
          header('Short position changes in 2 issuers'),
          section(
            '*Acme plc* (ISS-1) · total 3.40% → 4.17% (+0.77 pp) · disclosed 2024-05-02',
            ACME_RAISED_LINE,
            ACME_OPENED_LINE,
          ),
          divider,
          section(BOLT_HEADING, BOLT_CLOSED_LINE),
        ],
      },
    ],
  },
  {
    name: 'an issuer without events is left out of the counts and the body',
    message: batch({ issuer: BOLT, events: [] }, { issuer: ACME, events: [acmeRaised] }),
    expected: [
      {
        text: '1 short position change in 1 issuer: Acme plc',
        blocks: [
          header('Short position changes in 1 issuer'),
          section(
            '*Acme plc* (ISS-1) · total 3.40% → 3.55% (+0.15 pp) · disclosed 2024-05-02',
            ACME_RAISED_LINE,
          ),
        ],
      },
    ],
  },
  {
    name: 'a batch without events renders nothing',
    message: batch({ issuer: ACME, events: [] }),
    expected: [],
  },
  {
    name: 'a batch without groups renders nothing',
    message: batch(),
    expected: [],
  },
];

describe('renderSlack: batch', () => {
  it.each(cases)('$name', ({ message, options, expected }) => {
    expect(renderSlack(message, options)).toEqual(expected);
  });

  it('a batch too big for one message splits, continuing issuer headings, and loses no event', () => {
    const groups = Array.from({ length: 20 }, (_, i) => {
      const issuer = { id: `ISS-${i}`, name: `Issuer ${i} plc` };
      // One poll of ten raises: the issuer total moves by all of them.
      const issuerTotal = { before: 3.4, after: 4.9 };
      const events = Array.from({ length: 10 }, (_, j) =>
        event(issuer, { holder: `Holder ${i}-${j}`, issuerTotal }),
      );
      return { issuer, events };
    });
    const payloads = renderSlack(batch(...groups));
    expect(payloads).toHaveLength(2);
    for (const payload of payloads) {
      expect(withinLimits(payload)).toBe(true);
      expect(payload.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.blocks);
    }
    const sections = payloads
      .flatMap((payload) => payload.blocks)
      .flatMap((block) => (block.type === 'section' ? [block.text.text] : []))
      .join('\n');
    for (const { events } of groups) {
      for (const { holder } of events) expect(sections.split(`*${holder}* raised`)).toHaveLength(2);
    }
    expect(payloads[1]?.blocks.slice(0, 2)).toEqual([
      header('Short position changes in 20 issuers (2/2)'),
      section(
        '*Issuer 13 plc* (ISS-13) · total 3.40% → 4.90% (+1.50 pp) · disclosed 2024-05-02 (continued)',
        ':arrow_up: *Holder 13-8* raised 0.95% → *1.10%* (+0.15 pp) · crossed 1%',
        ':arrow_up: *Holder 13-9* raised 0.95% → *1.10%* (+0.15 pp) · crossed 1%',
      ),
    ]);
  });
});
