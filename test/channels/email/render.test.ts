import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/channels/email/render.js';
import type { Message } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import { ACME, makeEvent } from './fixtures.js';

const LONDON = { timezone: 'Europe/London' };
const FOOTER = ['--', 'shortwatch · issuer ISS-1 · detected 20 Nov 2024 07:31 (Europe/London)', ''];
const CLOSED_NOTE =
  'Closed: the position fell below the 0.5% public disclosure threshold and is no longer published; it is not known to be covered.';

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

function eventsMessage(events: PositionEvent[], issuer = ACME): Message {
  return { type: 'events', issuer, events };
}

describe('renderEmail: one event', () => {
  it.each([
    {
      name: 'opened',
      event: opened,
      subject: 'Citadel opened a 0.62% short in Acme plc',
      text: [
        'Citadel opened a 0.62% short in Acme plc',
        '',
        '* Citadel opened a short in Acme plc: 0.62% (2024-11-20)',
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
      subject: 'Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp)',
      text: [
        'Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp)',
        '',
        '* Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp, from 1.11%; 2024-11-20)',
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
      subject: 'Marshall Wace cut its short in Acme plc to 0.98% (-0.25 pp)',
      text: [
        'Marshall Wace cut its short in Acme plc to 0.98% (-0.25 pp)',
        '',
        '* Marshall Wace cut its short in Acme plc to 0.98% (-0.25 pp, from 1.23%; 2024-11-20)',
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
      subject: "Marshall Wace's short in Acme plc fell below the 0.5% disclosure threshold",
      text: [
        "Marshall Wace's short in Acme plc fell below the 0.5% disclosure threshold",
        '',
        "* Marshall Wace's short in Acme plc fell below the 0.5% public disclosure threshold (last disclosed 0.41% on 2024-11-19)",
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 2.78% (-0.62 pp)',
        '',
        CLOSED_NOTE,
        '',
        ...FOOTER,
      ],
    },
    {
      name: 'closed, final value unknown',
      event: closedBare,
      subject: "Marshall Wace's short in Acme plc fell below the 0.5% disclosure threshold",
      text: [
        "Marshall Wace's short in Acme plc fell below the 0.5% disclosure threshold",
        '',
        "* Marshall Wace's short in Acme plc fell below the 0.5% public disclosure threshold (last seen at 0.62% on 2024-11-10)",
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 2.78% (-0.62 pp)',
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
    expect(email.html).toContain('closed (below 0.5%)');
    expect(email.html).toContain('0.62% → below 0.5%; last disclosed 0.41% on 2024-11-19');
  });

  it('html carries the table row and the issuer total', () => {
    const { html } = renderEmail(eventsMessage([raised]), LONDON);
    const cells = [...html.matchAll(/<td class="sw-td"[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(['Marshall Wace', 'raised', '1.11% → 1.23%', '+0.12 pp', '2024-11-20', '1%']);
    expect(html).toContain('Total disclosed short in Acme plc: 3.40% → 3.52% (+0.12 pp)');
  });
});

describe('renderEmail: several events', () => {
  it('3 events: count and issuer in the subject, one line each in the text, one row each in the html', () => {
    // One poll: every event carries the same issuer total.
    const issuerTotal = { before: 3.4, after: 3.52 };
    const events = [opened, raised, closedFinal].map((e) => ({ ...e, issuerTotal }));
    const email = renderEmail(eventsMessage(events), LONDON);
    expect(email.subject).toBe('3 changes in Acme plc');
    expect(email.text).toBe(
      [
        '3 changes in Acme plc',
        '',
        '* Citadel opened a short in Acme plc: 0.62% (2024-11-20)',
        '  Thresholds crossed: 0.5%',
        '* Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp, from 1.11%; 2024-11-20)',
        '  Thresholds crossed: 1%',
        "* Marshall Wace's short in Acme plc fell below the 0.5% public disclosure threshold (last disclosed 0.41% on 2024-11-19)",
        '  Thresholds crossed: 0.5%',
        '',
        'Total disclosed short in Acme plc: 3.40% → 3.52% (+0.12 pp)',
        '',
        CLOSED_NOTE,
        '',
        ...FOOTER,
      ].join('\n'),
    );
    expect(email.html.match(/<tr><td class="sw-td"/g)).toHaveLength(3);
  });
});

describe('renderEmail: hostile upstream strings', () => {
  const script = '<script>alert(1)</script>';

  it('a holder named <script> is escaped in html and raw in text', () => {
    const email = renderEmail(eventsMessage([makeEvent({ holder: script })]), LONDON);
    expect(email.html).not.toContain('<script');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.text).toContain(`* ${script} raised its short in Acme plc`);
    expect(email.subject).toBe(`${script} raised its short in Acme plc to 1.23% (+0.12 pp)`);
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
    expect(email.subject).toBe(
      'Marshall Wace raised its short in Acme Bcc: victim@example.com to 1.23% (+0.12 pp)',
    );
    expect(email.subject).not.toMatch(/[\r\n]/);
    const several = renderEmail(
      eventsMessage([makeEvent({ issuer }), makeEvent({ issuer })], issuer),
      LONDON,
    );
    expect(several.subject).toBe('2 changes in Acme Bcc: victim@example.com');
  });

  it('a very long name is cut so that the subject stays at 200 characters', () => {
    const issuer = { id: 'ISS-4', name: 'Very Long Name '.repeat(40) };
    const { subject } = renderEmail(eventsMessage([makeEvent({ issuer })], issuer), LONDON);
    expect(Array.from(subject).length).toBeLessThanOrEqual(200);
    expect(Array.from(subject).length).toBeGreaterThan(190);
    expect(subject.endsWith('…')).toBe(true);
  });
});

describe('renderEmail: layout', () => {
  it('is one self-contained, dark-mode aware 600px document', () => {
    const { html } = renderEmail(eventsMessage([raised]), LONDON);
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect(html).toContain('max-width:600px');
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
