import { describe, expect, it } from 'vitest';
import {
  renderTeams,
  type TeamsPayload,
  type TeamsRenderOptions,
  type TextBlock,
} from '../../../src/channels/teams/index.js';
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
  eventsOf,
  fellBelowListed,
  flap,
  opened,
  raised,
} from '../story-fixtures.js';

const BOLT = { id: 'ISS-2', name: 'Bolt AG' };

const title = (text: string): TextBlock => ({
  type: 'TextBlock',
  text,
  wrap: true,
  size: 'Large',
  weight: 'Bolder',
});
const line = (text: string): TextBlock => ({ type: 'TextBlock', text, wrap: true, spacing: 'Small' });
const heading = (text: string, separator = true): TextBlock => ({
  type: 'TextBlock',
  text,
  wrap: true,
  spacing: 'Medium',
  ...(separator ? { separator: true as const } : {}),
});
const smallPrint = (text: string, first = true): TextBlock => ({
  type: 'TextBlock',
  text,
  wrap: true,
  size: 'Small',
  isSubtle: true,
  ...(first ? { separator: true as const } : { spacing: 'Small' as const }),
});

/** The one card of a message that renders as one. */
function card(message: Message, options: TeamsRenderOptions = {}): TextBlock[] {
  const payloads = renderTeams(message, options);
  expect(payloads).toHaveLength(1);
  return payloads[0]?.attachments[0].content.body ?? [];
}

interface KindCase {
  name: string;
  events: PositionEvent[];
  line: string;
  context: string;
}

// Every event line, in the order a trader reads it: who, what, old → new (change), thresholds crossed;
// under it the issuer id, its total before → after, and when it was disclosed. The same facts as Slack's.
const kindCases: KindCase[] = [
  {
    name: 'opened',
    events: [opened],
    line: '🆕 **Alpha Capital LLP** opened **0.62%** (+0.62 pp) · crossed 0.5%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 4.02% (+0.62 pp) · disclosed 2024-05-02',
  },
  {
    name: 'raised, crossing two thresholds',
    events: [raised],
    line: '⬆️ **Beta Partners** raised 0.95% → **2.10%** (+1.15 pp) · crossed 1%, 2%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 4.55% (+1.15 pp) · disclosed 2024-05-02',
  },
  {
    name: 'cut, crossing nothing',
    events: [cut],
    line: '⬇️ **Gamma Fund** cut 1.30% → **1.25%** (-0.05 pp)',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 3.35% (-0.05 pp) · disclosed 2024-05-02',
  },
  {
    name: 'fell below, by a cut the register lists',
    events: [fellBelowListed],
    line: '⬇️ **Delta AM** fell below the 0.5% disclosure threshold (0.47%), no longer public · 0.56% → **0.47%** (-0.09 pp) · crossed 0.5%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 3.31% (-0.09 pp) · disclosed 2024-05-02',
  },
  {
    name: 'fell below, gone from the list, its last disclosure known',
    events: [closedFinal],
    line: '⚪ **Delta AM** fell below the 0.5% disclosure threshold (0.45%), no longer public · 0.55% → off the list at 0.45% (-0.10 pp) · crossed 0.5%',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.85% (-0.55 pp); the total counts listed positions only: Delta AM's last listed 0.55% left the list with it · disclosed 2024-05-02",
  },
  {
    name: 'fell below, gone from the list, its last disclosure unknown',
    events: [closedNoFinal],
    line: '⚪ **Delta AM** fell below the 0.5% disclosure threshold, no longer public · 0.55% → off the list · crossed 0.5%',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.85% (-0.55 pp); the total counts listed positions only: Delta AM's last listed 0.55% left the list with it",
  },
  {
    name: 'a fall below confirmed (channels with everyChange)',
    events: [confirmed],
    line: '⚪ **Delta AM** confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-05-02 · 0.47% → off the list',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.93% (-0.47 pp); the total counts listed positions only: Delta AM's last listed 0.47% left the list with it",
  },
  {
    name: 'reopened: back above 0.5% after N days',
    events: [backAbove],
    line: '🆕 **Delta AM** back above 0.5% after 12 days · **0.52%** (+0.52 pp) · crossed 0.5%',
    context: 'ISS-1 · Issuer total disclosed short 3.40% → 3.92% (+0.52 pp) · disclosed 2024-05-14',
  },
  {
    name: 'a flap: three events of one holder are one line with the sequence, every value in it',
    events: flap,
    line: '↔️ **Flap Cap** crossed 0.5% 3 times · 0.52% → 0.47% → 0.51% → off the list at 0.48% (-0.04 pp) · crossed 0.5%',
    context:
      "ISS-1 · Issuer total disclosed short 3.40% → 2.88% (-0.52 pp); the total counts listed positions only: Flap Cap's last listed 0.51% left the list with it · disclosed 2024-05-03",
  },
  {
    name: 'a total that includes changes this channel does not show says so',
    events: [{ ...cut, issuerTotal: { before: 3.4, after: 3.52 }, hidden: { count: 2, delta: 0.17 } }],
    line: '⬇️ **Gamma Fund** cut 1.30% → **1.25%** (-0.05 pp)',
    context:
      'ISS-1 · Issuer total disclosed short 3.40% → 3.52% (+0.12 pp, of which +0.17 pp in 2 changes not shown here) · disclosed 2024-05-02',
  },
];

describe('renderTeams: the exact text of each event line', () => {
  it.each(kindCases)('$name', ({ events, line: text, context }) => {
    expect(card(eventsOf(...events))).toEqual([title('Acme plc'), line(text), smallPrint(context)]);
  });
});

const OPENED = '🆕 **Alpha Capital LLP** opened **0.62%** (+0.62 pp) · crossed 0.5%';
const RAISED = '⬆️ **Beta Partners** raised 0.95% → **2.10%** (+1.15 pp) · crossed 1%, 2%';
const CUT = '⬇️ **Gamma Fund** cut 1.30% → **1.25%** (-0.05 pp)';
/** The cut, disclosed a day before the other changes. */
const cutEarlier: PositionEvent = { ...cut, current: { value: 1.25, date: '2024-05-01' } };

/** Ten raises of Acme plc, an hour apart, each moving the issuer total by its own change. */
const tenRaises = Array.from({ length: 10 }, (_, i): PositionEvent => {
  const before = Math.round((3.4 + (0.1 * i * (i + 1)) / 2) * 10_000) / 10_000;
  const delta = Math.round(0.1 * (i + 1) * 10_000) / 10_000;
  return event({
    kind: 'increased',
    holder: `Holder ${i}`,
    previous: { value: 1, date: '2024-05-01' },
    current: { value: 1 + delta, date: '2024-05-02' },
    delta,
    issuerTotal: { before, after: Math.round((before + delta) * 10_000) / 10_000 },
    detectedAt: `2024-05-01T${String(8 + i).padStart(2, '0')}:00:00.000Z`,
  });
});

const HOSTILE_ISSUER = { id: 'ISS-<2>', name: '1. Smith & *Sons* <plc>' };

describe('renderTeams', () => {
  it('wraps the card in the Workflows message envelope', () => {
    const [payload] = renderTeams({ type: 'test', channel: 'desk', sentAt: '2024-05-02T07:31:00.000Z' });
    const expected: TeamsPayload = {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            msteams: { width: 'Full' },
            body: [
              title('🧪 shortwatch test message — not a real alert'),
              line(
                'Sent to channel **desk** at 2 May 2024 07:31 (UTC). No short position changed; nothing needs doing.',
              ),
            ],
          },
        },
      ],
    };
    expect(payload).toEqual(expected);
  });

  it.each<{ name: string; message: Message; options?: TeamsRenderOptions; body: TextBlock[] }>([
    {
      name: 'events: the issuer as title, a line per holder dated when dates differ, the id and total, the delivery id',
      message: eventsOf(
        ...[opened, raised, cutEarlier, closedFinal].map((e) => ({
          ...e,
          issuerTotal: { before: 3.4, after: 4.57 },
        })),
      ),
      options: { deliveryId: 'd-0a1b2c3d-00112233445566778899aabb' },
      body: [
        title('Acme plc'),
        line('🆕 **Alpha Capital LLP** opened **0.62%** (+0.62 pp) · 2024-05-02 · crossed 0.5%'),
        line('⬆️ **Beta Partners** raised 0.95% → **2.10%** (+1.15 pp) · 2024-05-02 · crossed 1%, 2%'),
        line('⬇️ **Gamma Fund** cut 1.30% → **1.25%** (-0.05 pp) · 2024-05-01'),
        line(
          '⚪ **Delta AM** fell below the 0.5% disclosure threshold (0.45%), no longer public · 0.55% → off the list at 0.45% (-0.10 pp) · 2024-05-02 · crossed 0.5%',
        ),
        smallPrint(
          "ISS-1 · Issuer total disclosed short 3.40% → 4.57% (+1.17 pp); the total counts listed positions only: Delta AM's last listed 0.55% left the list with it",
        ),
        smallPrint('Delivery d-0a1b2c3d-00112233445566778899aabb', false),
      ],
    },
    {
      name: 'events without a delivery id (test-notify sends outside the outbox)',
      message: eventsOf(cutEarlier),
      body: [
        title('Acme plc'),
        line(CUT),
        smallPrint('ISS-1 · Issuer total disclosed short 3.40% → 3.35% (-0.05 pp) · disclosed 2024-05-01'),
      ],
    },
    {
      name: 'hostile names are escaped everywhere, values never',
      message: {
        type: 'events',
        issuer: HOSTILE_ISSUER,
        events: [
          { ...opened, holder: '<at>all</at>', holderKey: 'a', issuer: HOSTILE_ISSUER },
          {
            ...cut,
            holder: '[x](http://evil) _y_',
            holderKey: 'b',
            issuer: HOSTILE_ISSUER,
            issuerTotal: { before: 3.4, after: 3.97 },
          },
        ].map((e) => ({ ...e, issuerTotal: { before: 3.4, after: 3.97 } })),
      },
      body: [
        title('1\\. Smith \\& \\*Sons\\* \\<plc\\>'),
        line('🆕 **\\<at\\>all\\</at\\>** opened **0.62%** (+0.62 pp) · crossed 0.5%'),
        line('⬇️ **\\[x\\](http://evil) \\_y\\_** cut 1.30% → **1.25%** (-0.05 pp)'),
        smallPrint(
          'ISS-\\<2\\> · Issuer total disclosed short 3.40% → 3.97% (+0.57 pp) · disclosed 2024-05-02',
        ),
      ],
    },
    {
      name: 'batch: a heading per issuer with its id, total and shared date; a rule between issuers',
      message: {
        type: 'batch',
        groups: [
          {
            issuer: ACME,
            events: [opened, raised].map((e) => ({ ...e, issuerTotal: { before: 3.4, after: 5.17 } })),
          },
          {
            issuer: BOLT,
            events: [cutEarlier, closedFinal].map((e) => ({
              ...e,
              issuer: BOLT,
              issuerTotal: { before: 1.3, after: 0.7 },
            })),
          },
          { issuer: { id: 'ISS-3', name: 'Empty plc' }, events: [] },
        ],
      },
      options: { deliveryId: 'd-1' },
      body: [
        title('Short position changes in 2 issuers'),
        heading('**Acme plc** (ISS-1) · total 3.40% → 5.17% (+1.77 pp) · disclosed 2024-05-02', false),
        line(OPENED),
        line(RAISED),
        // Lines of different dates each carry theirs, and the heading none.
        heading(
          "**Bolt AG** (ISS-2) · total 1.30% → 0.70% (-0.60 pp); the total counts listed positions only: Delta AM's last listed 0.55% left the list with it",
        ),
        line('⬇️ **Gamma Fund** cut 1.30% → **1.25%** (-0.05 pp) · 2024-05-01'),
        line(
          '⚪ **Delta AM** fell below the 0.5% disclosure threshold (0.45%), no longer public · 0.55% → off the list at 0.45% (-0.10 pp) · 2024-05-02 · crossed 0.5%',
        ),
        smallPrint('Delivery d-1'),
      ],
    },
    {
      name: 'digest: issuers newest first, each in the order things happened, no top movers in a short one',
      message: {
        type: 'digest',
        period: {
          from: '2024-05-01T06:30:00.000Z',
          to: '2024-05-02T06:30:00.000Z',
          timezone: 'Europe/London',
        },
        events: [
          { ...opened, detectedAt: '2024-05-01T08:00:00.000Z', issuerTotal: { before: 3.4, after: 4.02 } },
          {
            ...cut,
            issuer: BOLT,
            issuerTotal: { before: 1.3, after: 1.25 },
            detectedAt: '2024-05-01T09:00:00.000Z',
          },
          { ...raised, detectedAt: '2024-05-01T10:00:00.000Z', issuerTotal: { before: 4.02, after: 5.17 } },
        ],
      },
      body: [
        title('Short positions digest'),
        line(
          '**Period:** 1 May 2024 07:30 → 2 May 2024 07:30 (Europe/London) · 3 short position changes in 2 issuers',
        ),
        heading('**Acme plc** (ISS-1) · total 3.40% → 5.17% (+1.77 pp) · disclosed 2024-05-02'),
        line(OPENED),
        line(RAISED),
        heading('**Bolt AG** (ISS-2) · total 1.30% → 1.25% (-0.05 pp) · disclosed 2024-05-02'),
        line(CUT),
      ],
    },
    {
      name: 'digest of 10 changes: the top movers, largest first, above the issuers',
      message: {
        type: 'digest',
        period: { from: '2024-05-01T06:30:00.000Z', to: '2024-05-02T06:30:00.000Z', timezone: 'UTC' },
        events: tenRaises,
      },
      body: [
        title('Short positions digest'),
        line('**Period:** 1 May 2024 06:30 → 2 May 2024 06:30 (UTC) · 10 short position changes in 1 issuer'),
        // One TextBlock a line: a card may not break a lone newline.
        line('**Top movers**'),
        line('⬆️ Acme plc: Holder 9 raised 1.00% → 2.00% (+1.00 pp) on 2024-05-02'),
        line('⬆️ Acme plc: Holder 8 raised 1.00% → 1.90% (+0.90 pp) on 2024-05-02'),
        line('⬆️ Acme plc: Holder 7 raised 1.00% → 1.80% (+0.80 pp) on 2024-05-02'),
        line('⬆️ Acme plc: Holder 6 raised 1.00% → 1.70% (+0.70 pp) on 2024-05-02'),
        line('⬆️ Acme plc: Holder 5 raised 1.00% → 1.60% (+0.60 pp) on 2024-05-02'),
        heading('**Acme plc** (ISS-1) · total 3.40% → 8.90% (+5.50 pp) · disclosed 2024-05-02'),
        line('⬆️ **Holder 0** raised 1.00% → **1.10%** (+0.10 pp)'),
        line('⬆️ **Holder 1** raised 1.00% → **1.20%** (+0.20 pp)'),
        line('⬆️ **Holder 2** raised 1.00% → **1.30%** (+0.30 pp)'),
        line('⬆️ **Holder 3** raised 1.00% → **1.40%** (+0.40 pp)'),
        line('⬆️ **Holder 4** raised 1.00% → **1.50%** (+0.50 pp)'),
        line('⬆️ **Holder 5** raised 1.00% → **1.60%** (+0.60 pp)'),
        line('⬆️ **Holder 6** raised 1.00% → **1.70%** (+0.70 pp)'),
        line('⬆️ **Holder 7** raised 1.00% → **1.80%** (+0.80 pp)'),
        line('⬆️ **Holder 8** raised 1.00% → **1.90%** (+0.90 pp)'),
        line('⬆️ **Holder 9** raised 1.00% → **2.00%** (+1.00 pp)'),
      ],
    },
    {
      name: 'an empty digest says so',
      message: {
        type: 'digest',
        period: { from: '2024-05-01T06:30:00.000Z', to: '2024-05-02T06:30:00.000Z', timezone: 'UTC' },
        events: [],
      },
      body: [
        title('Short positions digest'),
        line('**Period:** 1 May 2024 06:30 → 2 May 2024 06:30 (UTC) · 0 short position changes in 0 issuers'),
        line('No short position changed in this period.'),
      ],
    },
    {
      name: 'notice: severity and title, one line per line of text',
      message: {
        type: 'notice',
        key: 'channel-parked-desk',
        severity: 'critical',
        title: 'Deliveries to desk are parked',
        text: 'Teams webhook answered 404 http_404.\nFix the channel, then run: shortwatch deliveries retry --all',
      },
      options: { deliveryId: 'n-1' },
      body: [
        title('🚨 Critical: Deliveries to desk are parked'),
        line('Teams webhook answered 404 http\\_404.'),
        line('Fix the channel, then run: shortwatch deliveries retry --all'),
        smallPrint('Delivery n-1'),
      ],
    },
    {
      name: 'a resolved notice',
      message: { type: 'notice', key: 'k', severity: 'resolved', title: 'Access restored', text: '' },
      body: [title('✅ Resolved: Access restored')],
    },
    {
      name: 'test: in the configured time zone',
      message: { type: 'test', channel: 'desk_2', sentAt: '2024-05-02T07:31:00.000Z' },
      options: { timezone: 'Europe/London' },
      body: [
        title('🧪 shortwatch test message — not a real alert'),
        line(
          'Sent to channel **desk\\_2** at 2 May 2024 08:31 (Europe/London). No short position changed; nothing needs doing.',
        ),
      ],
    },
  ])('$name', ({ message, options, body }) => {
    expect(card(message, options)).toEqual(body);
  });

  it('renders nothing for an events or batch message without events', () => {
    expect(renderTeams({ type: 'events', issuer: ACME, events: [] })).toEqual([]);
    expect(renderTeams({ type: 'batch', groups: [{ issuer: ACME, events: [] }] })).toEqual([]);
  });

  it('never changes the message it renders', () => {
    const message: Message = { type: 'events', issuer: ACME, events: [{ ...opened, holder: 'A\nB' }] };
    const before = structuredClone(message);
    renderTeams(message);
    expect(message).toEqual(before);
  });
});
