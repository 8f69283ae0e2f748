import { describe, expect, it } from 'vitest';
import { stepChart } from '../../src/console/chart/step-chart.js';
import { CsrfTokens } from '../../src/console/csrf.js';
import { escapeHtml, html, trusted } from '../../src/console/html.js';
import { renderIssuer } from '../../src/console/pages/issuer.js';
import type { PositionEvent } from '../../src/positions/types.js';

const HOSTILE = '<script>alert("x")</script> & \'Co\'';

describe('html: every interpolated value is escaped', () => {
  it.each<[string, unknown, string]>([
    ['text', HOSTILE, '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;</p>'],
    ['a number', 1.5, '<p>1.5</p>'],
    ['NaN', Number.NaN, '<p></p>'],
    ['null, undefined and false', [null, undefined, false], '<p></p>'],
    ['an array of text', ['<a>', '<b>'], '<p>&lt;a&gt;&lt;b&gt;</p>'],
    ['nested html', html`<i>${'<u>'}</i>`, '<p><i>&lt;u&gt;</i></p>'],
    ['trusted markup', trusted('<br>'), '<p><br></p>'],
  ])('%s', (_, value, expected) => {
    // biome-ignore lint/suspicious/noExplicitAny: the table feeds every kind of value the helper takes.
    expect(html`<p>${value as any}</p>`.value).toBe(expected);
  });

  it('escapes quotes so a value cannot leave its attribute', () => {
    expect(html`<a title="${'" onmouseover="x'}">`.value).toBe('<a title="&quot; onmouseover=&quot;x">');
    expect(escapeHtml("'")).toBe('&#39;');
  });
});

describe('pages keep outside strings as text', () => {
  const event: PositionEvent = {
    id: 'e1',
    kind: 'opened',
    issuer: { id: 'ISS-1', name: '<img src=x onerror=alert(1)> plc' },
    holderKey: 'script alert x co',
    holder: HOSTILE,
    previous: null,
    current: { value: 0.7, date: '2026-01-05' },
    delta: 0.7,
    thresholdsCrossed: [0.5],
    issuerTotal: { before: 0, after: 0.7 },
    detectedAt: '2026-01-05T10:00:00.000Z',
  };

  it('renders a holder called <script> and an issuer with an <img> in every place as text', () => {
    const page = renderIssuer(
      {
        id: 'ISS-1',
        name: event.issuer.name,
        snapshot: {
          issuerId: 'ISS-1',
          issuerName: event.issuer.name,
          positions: { [event.holderKey]: { holder: HOSTILE, value: 0.7, date: '2026-01-05' } },
          lastUpdated: null,
          polledAt: '2026-01-05T10:00:00.000Z',
        },
        snapshotProblem: null,
        events: [event],
        history: null,
        dayLeft: 10,
        nowMs: Date.parse('2026-01-06T00:00:00Z'),
      },
      'token',
    ).value;
    expect(page).not.toContain('<script');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // Chart title, legend, holders table and the event row.
    expect(page.split('&lt;script&gt;').length - 1).toBeGreaterThanOrEqual(4);
  });

  it('draws each holder as a step line that holds its value until the next disclosure', () => {
    const svg = stepChart(
      [
        {
          key: 'a',
          label: 'A',
          points: [
            { t: Date.parse('2026-01-01'), v: 1 },
            { t: Date.parse('2026-01-11'), v: 2 },
          ],
          current: 2,
        },
      ],
      { from: Date.parse('2026-01-01'), now: Date.parse('2026-01-21'), title: 'T', width: 252, height: 140 },
    ).value;
    // x: 52..236 over 20 days; y: 0% at 112, the top tick 2% at 12. The value steps at day 10, not slopes.
    expect(svg).toContain('d="M52 62H144V12H236"');
  });
});

describe('csrf tokens', () => {
  const tokens = new CsrfTokens(Buffer.alloc(32, 7));
  const session = tokens.newSession();
  it.each<[string, string | undefined, string | undefined, boolean]>([
    ['the session token', session, tokens.tokenFor(session), true],
    ['no token', session, undefined, false],
    ['another session token', session, tokens.tokenFor(tokens.newSession()), false],
    ['no session', undefined, tokens.tokenFor(session), false],
    ['a session of another shape', 'x', tokens.tokenFor('x'), false],
    ['a token of another key', session, new CsrfTokens(Buffer.alloc(32, 8)).tokenFor(session), false],
  ])('%s', (_, s, token, ok) => {
    expect(tokens.verify(s, token)).toBe(ok);
  });
});
