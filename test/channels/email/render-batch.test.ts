import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/channels/email/render.js';
import type { BatchMessage, IssuerEvents } from '../../../src/channels/types.js';
import { ACME, makeEvent } from './fixtures.js';

const LONDON = { timezone: 'Europe/London' };
const BETA = { id: 'ISS-2', name: 'Beta Group' };
const CLOSED_NOTE =
  'Below 0.5%: a position under the 0.5% public disclosure threshold is no longer published; it is not known to be covered.';

const acmeRaised = makeEvent({ thresholdsCrossed: [1] });
const acmeOpened = makeEvent({
  id: 'evt-2',
  kind: 'opened',
  holderKey: 'citadel',
  holder: 'Citadel',
  previous: null,
  current: { value: 0.62, date: '2024-11-20' },
  delta: 0.62,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 3.52, after: 4.14 },
  detectedAt: '2024-11-20T08:31:00.000Z',
});
const betaClosed = makeEvent({
  id: 'evt-3',
  kind: 'closed',
  issuer: BETA,
  previous: { value: 0.62, date: '2024-11-10' },
  current: null,
  final: { value: 0.41, date: '2024-11-19' },
  delta: -0.62,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 1.2, after: 0.58 },
});

const batch = (...groups: IssuerEvents[]): BatchMessage => ({ type: 'batch', groups });

describe('renderEmail: batch', () => {
  it.each([
    {
      name: 'two issuers, events in the given order, one closed',
      message: batch(
        { issuer: BETA, events: [betaClosed] },
        { issuer: ACME, events: [acmeOpened, acmeRaised] },
      ),
      subject: '3 short position changes in 2 issuers: 1 opening, 1 rise, 1 fall below 0.5%',
      text: [
        '3 short position changes in 2 issuers',
        '',
        "Beta Group (ISS-2): total disclosed short 1.20% → 0.58% (-0.62 pp); the total counts listed positions only: Marshall Wace's last listed 0.62% left the list with it",
        '* Marshall Wace fell below the 0.5% disclosure threshold (0.41%), no longer public: 0.62% → off the list at 0.41% (-0.21 pp) on 2024-11-19',
        '  Thresholds crossed: 0.5%',
        '',
        'Acme plc (ISS-1): total disclosed short 3.40% → 4.14% (+0.74 pp)',
        '* Citadel opened 0.62% (+0.62 pp) on 2024-11-20',
        '  Thresholds crossed: 0.5%',
        '* Marshall Wace raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20',
        '  Thresholds crossed: 1%',
        '',
        CLOSED_NOTE,
        '',
        '--',
        'shortwatch · 2 issuers · detected 20 Nov 2024 08:31 (Europe/London)',
        '',
      ],
      headings: ['Beta Group (ISS-2)', 'Acme plc (ISS-1)'],
      rows: 3,
    },
    {
      name: 'one issuer with one event, no closed note',
      message: batch({ issuer: ACME, events: [acmeRaised] }, { issuer: BETA, events: [] }),
      subject: '1 short position change in 1 issuer: 1 rise',
      text: [
        '1 short position change in 1 issuer',
        '',
        'Acme plc (ISS-1): total disclosed short 3.40% → 3.52% (+0.12 pp)',
        '* Marshall Wace raised 1.11% → 1.23% (+0.12 pp) on 2024-11-20',
        '  Thresholds crossed: 1%',
        '',
        '--',
        'shortwatch · 1 issuer · detected 20 Nov 2024 07:31 (Europe/London)',
        '',
      ],
      headings: ['Acme plc (ISS-1)'],
      rows: 1,
    },
  ])(
    '$name: exact subject and text, a section per issuer in the html',
    ({ message, subject, text, headings, rows }) => {
      const email = renderEmail(message, LONDON);
      expect(email.subject).toBe(subject);
      expect(email.text).toBe(text.join('\n'));
      expect([...email.html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual(headings);
      expect(email.html.match(/<tr><td class="sw-td/g)).toHaveLength(rows);
      expect(email.html).toContain(`<title>${text[0]}</title>`);
    },
  );

  it('the html carries each issuer total and the event rows', () => {
    const { html } = renderEmail(
      batch({ issuer: ACME, events: [acmeRaised] }, { issuer: BETA, events: [betaClosed] }),
      LONDON,
    );
    expect(html).toContain('Total disclosed short 3.40% → 3.52% (+0.12 pp)');
    expect(html).toContain(
      'Total disclosed short 1.20% → 0.58% (-0.62 pp); the total counts listed positions only: Marshall Wace&#39;s last listed 0.62% left the list with it',
    );
    const cells = [...html.matchAll(/<td class="sw-td[^"]*"[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells.slice(0, 6)).toEqual([
      'Marshall Wace',
      'raised',
      '1.11% → 1.23%',
      '+0.12 pp',
      '2024-11-20',
      '1%',
    ]);
    expect(html).toContain(CLOSED_NOTE);
  });

  it('escapes upstream strings in the html and folds them onto one line in the text', () => {
    const issuer = { id: 'ISS-<9>', name: 'Smith & "Sons"\r\n<b>plc</b>' };
    const hostile = makeEvent({ holder: '<script>alert(1)</script>', issuer });
    const email = renderEmail(
      batch({ issuer, events: [hostile] }, { issuer: ACME, events: [acmeRaised] }),
      LONDON,
    );
    expect(email.html).not.toMatch(/<script|<b>/);
    expect(email.html).toContain('Smith &amp; &quot;Sons&quot; &lt;b&gt;plc&lt;/b&gt; (ISS-&lt;9&gt;)');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(email.text).toContain('\nSmith & "Sons" <b>plc</b> (ISS-<9>): total disclosed short');
    expect(email.text).toContain('\n* <script>alert(1)</script> raised 1.11% → 1.23%');
  });
});
