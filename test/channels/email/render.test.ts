import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/channels/email/render.js';
import type { Message } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import { EMAIL_SAMPLES } from '../../browser/email-samples.js';
import { ACME, makeEvent } from './fixtures.js';

const LONDON = { timezone: 'Europe/London' };
const FOOTER = ['--', 'shortwatch · issuer ISS-1 · detected 20 Nov 2024 07:31 (Europe/London)', ''];
const CLOSED_NOTE =
  'Below 0.5%: a position under the 0.5% public disclosure threshold is no longer published; it is not known to be covered.';

const opened = makeEvent({
  kind: 'opened',
  holderKey: 'citadel',
  holder: 'Citadel',
  previous: null,
  current: { value: 0.62, date: '2024-11-20' },
  delta: 0.62,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 3.4, after: 4.02 },
});
const raised = makeEvent({ thresholdsCrossed: [1] });
const cut = makeEvent({
  kind: 'decreased',
  previous: { value: 1.23, date: '2024-11-19' },
  current: { value: 0.98, date: '2024-11-20' },
  delta: -0.25,
  thresholdsCrossed: [1],
  issuerTotal: { before: 3.52, after: 3.27 },
});
const closedFinal = makeEvent({
  kind: 'closed',
  previous: { value: 0.62, date: '2024-11-10' },
  current: null,
  final: { value: 0.41, date: '2024-11-19' },
  delta: -0.62,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 3.4, after: 2.78 },
});
const { final: _dropped, ...closedBare } = closedFinal;

/** The text of every data cell of the html, in order. */
function cellsOf(html: string): string[] {
  return [...html.matchAll(/<td class="sw-td[^"]*"[^>]*>([^<]*)<\/td>/g)].map((m) => m[1] ?? '');
}

function eventsMessage(events: PositionEvent[], issuer = ACME): Message {
  return { type: 'events', issuer, events };
}

describe('renderEmail: one event', () => {
  it.each([
    {
      name: 'opened',
      event: opened,
      subject: 'Citadel opened 0.62% in Acme plc',
      text: [
        'Citadel opened a 0.62% short in Acme plc',
        '',
        '* Citadel opened 0.62% (+0.62 pp) on 2024-11-20',
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 4.02% (+0.62 pp)',
        '',
        ...FOOTER,
      ],
    },
    {
      name: 'raised',
      event: raised,
      subject: 'Marshall Wace raised Acme plc to 1.23% (+0.12 pp)',
      text: [
        'Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp)',
        '',
        '* Marshall Wace raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20',
        '  Thresholds crossed: 1%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 3.52% (+0.12 pp)',
        '',
        ...FOOTER,
      ],
    },
    {
      name: 'cut',
      event: cut,
      subject: 'Marshall Wace cut Acme plc to 0.98% (-0.25 pp)',
      text: [
        'Marshall Wace cut its short in Acme plc to 0.98% (-0.25 pp)',
        '',
        '* Marshall Wace cut 1.23% → 0.98% (-0.25 pp) on 2024-11-20',
        '  Thresholds crossed: 1%',
        '',
        'Total disclosed short in Acme plc: 3.52% → 3.27% (-0.25 pp)',
        '',
        ...FOOTER,
      ],
    },
    {
      name: 'closed, final value known',
      event: closedFinal,
      subject: 'Marshall Wace fell below 0.5% in Acme plc (0.62% → off the list at 0.41%)',
      text: [
        "Marshall Wace's short in Acme plc fell below the 0.5% disclosure threshold (0.41%), no longer public",
        '',
        '* Marshall Wace fell below the 0.5% disclosure threshold (0.41%), no longer public: 0.62% → off the list at 0.41% (-0.21 pp) on 2024-11-19',
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 2.78% (-0.62 pp)',
        "The total counts listed positions only: Marshall Wace's last listed 0.62% left the list with it.",
        '',
        CLOSED_NOTE,
        '',
        ...FOOTER,
      ],
    },
    {
      name: 'closed, final value unknown',
      event: closedBare,
      subject: 'Marshall Wace fell below 0.5% in Acme plc (0.62% → off the list)',
      text: [
        "Marshall Wace's short in Acme plc fell below the 0.5% disclosure threshold, no longer public",
        '',
        '* Marshall Wace fell below the 0.5% disclosure threshold, no longer public: 0.62% → off the list',
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 2.78% (-0.62 pp)',
        "The total counts listed positions only: Marshall Wace's last listed 0.62% left the list with it.",
        '',
        CLOSED_NOTE,
        '',
        ...FOOTER,
      ],
    },
  ])('$name: exact subject and text', ({ event, subject, text }) => {
    const email = renderEmail(eventsMessage([event]), LONDON);
    expect(email.subject).toBe(subject);
    expect(email.text).toBe(text.join('\n'));
  });

  it('closed never says covered, and its row says below the threshold with the last disclosed value', () => {
    const email = renderEmail(eventsMessage([closedFinal]), LONDON);
    for (const part of [email.subject, email.text, email.html]) {
      expect(part.replaceAll('not known to be covered', '')).not.toMatch(/cover/i);
    }
    expect(cellsOf(email.html)).toEqual([
      'Marshall Wace',
      'fell below the 0.5% disclosure threshold (0.41%), no longer public',
      '0.62% → off the list at 0.41%',
      '-0.21 pp',
      '2024-11-19',
      '0.5%',
    ]);
  });

  it('a close whose last disclosure is the value already shown states it once, in both parts', () => {
    // Listed under the threshold at 0.43%, then gone from the list: its fall below was told before.
    const same = makeEvent({
      ...closedFinal,
      previous: { value: 0.43, date: '2024-11-10' },
      final: { value: 0.43, date: '2024-11-19' },
      delta: -0.43,
      thresholdsCrossed: [],
      issuerTotal: { before: 3.4, after: 2.97 },
    });
    const email = renderEmail(eventsMessage([same]), LONDON);
    expect(cellsOf(email.html)[2]).toBe('0.43% → off the list');
    expect(email.text).toContain(
      '\n* Marshall Wace confirmed: no longer listed, as it fell below the 0.5% disclosure threshold on 2024-11-10: 0.43% → off the list\n',
    );
  });

  it('html carries the table row and the issuer total', () => {
    const { html } = renderEmail(eventsMessage([raised]), LONDON);
    expect(cellsOf(html)).toEqual([
      'Marshall Wace',
      'raised',
      '1.11% → 1.23%',
      '+0.12 pp',
      '2024-11-20',
      '1%',
    ]);
    expect(html).toContain('Total disclosed short in Acme plc: 3.40% → 3.52% (+0.12 pp)');
  });
});

describe('renderEmail: several events', () => {
  it('3 events: count and issuer in the subject, one line each in the text, one row each in the html', () => {
    // One poll: every event carries the same issuer total.
    const issuerTotal = { before: 3.4, after: 3.52 };
    const closedOther = { ...closedFinal, holder: 'Point72', holderKey: 'point72' };
    const events = [opened, raised, closedOther].map((e) => ({ ...e, issuerTotal }));
    const email = renderEmail(eventsMessage(events), LONDON);
    expect(email.subject).toBe('3 changes in Acme plc: 1 opening, 1 rise, 1 fall below 0.5%');
    expect(email.text).toBe(
      [
        '3 changes in Acme plc',
        '',
        '* Citadel opened 0.62% (+0.62 pp) on 2024-11-20',
        '  Thresholds crossed: 0.5%',
        '* Marshall Wace raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20',
        '  Thresholds crossed: 1%',
        '* Point72 fell below the 0.5% disclosure threshold (0.41%), no longer public: 0.62% → off the list at 0.41% (-0.21 pp) on 2024-11-19',
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 3.52% (+0.12 pp)',
        "The total counts listed positions only: Point72's last listed 0.62% left the list with it.",
        '',
        CLOSED_NOTE,
        '',
        ...FOOTER,
      ].join('\n'),
    );
    expect(email.html.match(/<tr><td class="sw-td/g)).toHaveLength(3);
  });
});

describe('renderEmail: hostile upstream strings', () => {
  const script = '<script>alert(1)</script>';

  it('a holder named <script> is escaped in html and raw in text', () => {
    const email = renderEmail(eventsMessage([makeEvent({ holder: script })]), LONDON);
    expect(email.html).not.toContain('<script');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.text).toContain(`* ${script} raised 1.11% → 1.23%`);
    expect(email.text.split('\n')[0]).toBe(`${script} raised its short in Acme plc to 1.23% (+0.12 pp)`);
    expect(email.subject).toBe(`${script} raised Acme plc to 1.23% (+0.12 pp)`);
  });

  it('quotes and ampersands in an issuer name are escaped in html', () => {
    const issuer = { id: 'ISS-2', name: `Smith & "Sons" <b>'plc'</b>` };
    const { html } = renderEmail(eventsMessage([makeEvent({ issuer })], issuer), LONDON);
    expect(html).toContain('Smith &amp; &quot;Sons&quot; &lt;b&gt;&#39;plc&#39;&lt;/b&gt;');
    expect(html).not.toContain('<b>');
  });

  it('CR and LF in an issuer name never reach the subject', () => {
    const issuer = { id: 'ISS-3', name: 'Acme\r\nBcc: victim@example.com\r\n' };
    const email = renderEmail(eventsMessage([makeEvent({ issuer })], issuer), LONDON);
    expect(email.subject).toBe('Marshall Wace raised Acme Bcc: victim@example.com to 1.23% (+0.12 pp)');
    expect(email.subject).not.toMatch(/[\r\n]/);
    const several = renderEmail(
      eventsMessage([makeEvent({ issuer }), makeEvent({ issuer })], issuer),
      LONDON,
    );
    expect(several.subject).toBe(
      'Marshall Wace: 2 changes in Acme Bcc: victim@example.com (1.11% → 1.23% → 1.23%)',
    );
    expect(several.text.split('\n')[0]).toBe('2 changes in Acme Bcc: victim@example.com');
  });

  const LONG = 'Very Long Name '.repeat(40);
  const CLIPPED = `${'Very Long Name '.repeat(7)}Very Long Name…`;
  const longIssuer = { id: 'ISS-4', name: LONG };

  it.each([
    {
      name: 'a long issuer name is clipped to 120 characters in the subject and the headline',
      events: [makeEvent({ issuer: longIssuer })],
      subject: `Marshall Wace raised ${CLIPPED} to 1.23% (+0.12 pp)`,
      headline: `Marshall Wace raised its short in ${CLIPPED} to 1.23% (+0.12 pp)`,
    },
    {
      name: 'a long holder name is clipped to 120 characters in the headline',
      events: [makeEvent({ holder: LONG })],
      subject: `${CLIPPED} raised Acme plc to 1.23% (+0.12 pp)`,
      headline: `${CLIPPED} raised its short in Acme plc to 1.23% (+0.12 pp)`,
    },
    {
      name: 'a long issuer name in a count headline is clipped',
      events: [
        makeEvent({ issuer: longIssuer }),
        makeEvent({ issuer: longIssuer, holder: 'Point72', holderKey: 'point72' }),
      ],
      subject: `2 changes in ${CLIPPED}: 2 rises`,
      headline: `2 changes in ${CLIPPED}`,
    },
  ])('$name', ({ events, subject, headline }) => {
    const issuer = events[0]?.issuer ?? ACME;
    const email = renderEmail(eventsMessage(events, issuer), LONDON);
    expect(email.subject).toBe(subject);
    expect(email.text.split('\n')[0]).toBe(headline);
  });

  it('two long names: each is clipped in the headline, the subject stays within 200 characters', () => {
    const event = makeEvent({ holder: 'H'.repeat(5000), issuer: longIssuer });
    const email = renderEmail(eventsMessage([event], longIssuer), LONDON);
    expect(email.text.split('\n')[0]).toBe(
      `${'H'.repeat(119)}… raised its short in ${CLIPPED} to 1.23% (+0.12 pp)`,
    );
    expect(Array.from(email.subject).length).toBeLessThanOrEqual(200);
    // The body keeps the full names.
    expect(email.text).toContain('H'.repeat(5000));
  });
});

describe('renderEmail: the html and text parts carry the same facts', () => {
  it.each(EMAIL_SAMPLES.filter((sample) => sample.message.type !== 'notice'))(
    '$name: every cell of the html is in the text',
    ({ message }) => {
      const email = renderEmail(message, LONDON);
      const cells = cellsOf(email.html).filter((cell) => cell !== '—');
      const decoded = cells.map((cell) => cell.replaceAll('&amp;', '&'));
      expect(decoded.filter((cell) => !email.text.includes(cell))).toEqual([]);
    },
  );
});

describe('renderEmail: layout', () => {
  it('is one self-contained, dark-mode aware 680px document, stacked on narrow screens', () => {
    const { html } = renderEmail(eventsMessage([raised]), LONDON);
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('max-width:680px');
    expect(html).toContain('@media (max-width: 620px)');
    // Values, deltas and dates never break over two lines (measured in a browser in test/browser).
    expect(html).toMatch(/<td class="sw-td sw-value" data-label="Old → new" style="[^"]*white-space:nowrap/);
    expect(html).toMatch(/<td class="sw-td sw-delta" data-label="Δ" style="[^"]*white-space:nowrap/);
    expect(html).toMatch(/<td class="sw-td sw-date" data-label="Date" style="[^"]*white-space:nowrap/);
    expect(html).not.toMatch(/<img|src=|url\(|https?:/i);
  });
});

describe('renderEmail: notice and test', () => {
  it('test message: labelled as not a real alert, time shown in the channel zone', () => {
    const email = renderEmail(
      { type: 'test', channel: 'alice', sentAt: '2024-06-20T06:31:00.000Z' },
      { timezone: 'Europe/London' },
    );
    expect(email.subject).toBe('shortwatch test message — not a real alert');
    expect(email.text).toBe(
      [
        'shortwatch test message — not a real alert',
        '',
        'This is a test message from shortwatch for channel "alice", sent 20 Jun 2024 07:31 (Europe/London).',
        'It is not a real alert: no short position changed. If you can read it, delivery works.',
        '',
        '--',
        'shortwatch test message',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain('not a real alert');
  });

  it.each([
    { severity: 'critical', subject: '[shortwatch] CRITICAL: Upstream access revoked' },
    { severity: 'warning', subject: '[shortwatch] Warning: Upstream access revoked' },
    { severity: 'info', subject: '[shortwatch] Info: Upstream access revoked' },
    { severity: 'resolved', subject: '[shortwatch] Resolved: Upstream access revoked' },
  ] as const)(
    'notice ($severity): labelled subject, text as given, html escaped',
    ({ severity, subject }) => {
      const email = renderEmail(
        {
          type: 'notice',
          key: 'access-revoked',
          severity,
          title: 'Upstream access revoked',
          text: 'The API answered 403 for <key>.\r\nPolling stopped.',
        },
        LONDON,
      );
      expect(email.subject).toBe(subject);
      expect(email.text).toBe(
        [
          subject,
          '',
          'The API answered 403 for <key>.',
          'Polling stopped.',
          '',
          '--',
          'shortwatch operator notice · access-revoked',
          '',
        ].join('\n'),
      );
      expect(email.html).toContain('The API answered 403 for &lt;key&gt;.<br>Polling stopped.');
    },
  );
});
