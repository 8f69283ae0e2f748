import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../../src/channels/email/render.js';
import type { DigestMessage } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import { makeEvent } from './fixtures.js';

const PERIOD = {
  from: '2024-11-20T07:30:00.000Z',
  to: '2024-11-21T07:30:00.000Z',
  timezone: 'Europe/London',
};
const BETA = { id: 'ISS-2', name: 'Beta Group' };
const GAMMA = { id: 'ISS-3', name: 'Gamma Ltd' };

const acmeRaised = makeEvent({ detectedAt: '2024-11-20T09:00:00.000Z' });
const acmeCut = makeEvent({
  kind: 'decreased',
  previous: { value: 1.23, date: '2024-11-20' },
  current: { value: 0.98, date: '2024-11-21' },
  delta: -0.25,
  issuerTotal: { before: 3.52, after: 3.27 },
  detectedAt: '2024-11-21T06:00:00.000Z',
});
const betaOpened = makeEvent({
  kind: 'opened',
  issuer: BETA,
  holderKey: 'citadel',
  holder: 'Citadel',
  previous: null,
  current: { value: 0.8, date: '2024-11-20' },
  delta: 0.8,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 0, after: 0.8 },
  detectedAt: '2024-11-20T12:00:00.000Z',
});
const gammaClosed = makeEvent({
  kind: 'closed',
  issuer: GAMMA,
  previous: { value: 0.55, date: '2024-11-01' },
  current: null,
  final: { value: 0.45, date: '2024-11-20' },
  delta: -0.55,
  thresholdsCrossed: [0.5],
  issuerTotal: { before: 1.55, after: 1 },
  detectedAt: '2024-11-20T08:00:00.000Z',
});

function digest(events: PositionEvent[], period = PERIOD): DigestMessage {
  return { type: 'digest', period, events };
}

describe('renderEmail: digest', () => {
  // Given in no useful order: the renderer sorts.
  const email = renderEmail(digest([acmeRaised, gammaClosed, betaOpened, acmeCut]), { timezone: 'UTC' });

  it('states the count and the period in the subject', () => {
    expect(email.subject).toBe(
      'Short positions digest: 4 changes, 20 Nov 07:30 – 21 Nov 07:30 (Europe/London)',
    );
  });

  it('text: period, top movers by |Δ|, then issuers newest first with totals, events newest first', () => {
    expect(email.text).toBe(
      [
        'Short positions digest: 4 changes',
        'Period: 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)',
        '',
        'Top movers',
        '* Citadel opened a short in Beta Group: 0.80% (2024-11-20)',
        "* Marshall Wace's short in Gamma Ltd fell below the 0.5% public disclosure threshold (last disclosed 0.45% on 2024-11-20)",
        '* Marshall Wace cut its short in Acme plc to 0.98% (-0.25 pp, from 1.23%; 2024-11-21)',
        '* Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp, from 1.11%; 2024-11-20)',
        '',
        'Acme plc: total disclosed short 3.27% (net -0.13 pp over the period)',
        '* Marshall Wace cut its short in Acme plc to 0.98% (-0.25 pp, from 1.23%; 2024-11-21)',
        '* Marshall Wace raised its short in Acme plc to 1.23% (+0.12 pp, from 1.11%; 2024-11-20)',
        '',
        'Beta Group: total disclosed short 0.80% (net +0.80 pp over the period)',
        '* Citadel opened a short in Beta Group: 0.80% (2024-11-20)',
        '  Thresholds crossed: 0.5%',
        '',
        'Gamma Ltd: total disclosed short 1.00% (net -0.55 pp over the period)',
        "* Marshall Wace's short in Gamma Ltd fell below the 0.5% public disclosure threshold (last disclosed 0.45% on 2024-11-20)",
        '  Thresholds crossed: 0.5%',
        '',
        'Closed: the position fell below the 0.5% public disclosure threshold and is no longer published; it is not known to be covered.',
        '',
        '--',
        'shortwatch digest · 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)',
        '',
      ].join('\n'),
    );
  });

  it('html: period, top movers first, issuer sections newest first, one row per event', () => {
    const { html } = email;
    expect(html).toContain('Period: 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)');
    const headings = [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['Top movers', 'Acme plc', 'Beta Group', 'Gamma Ltd']);
    expect(html).toContain('Total disclosed short 3.27% (net -0.13 pp over the period)');
    expect(html.match(/<tr><td class="sw-td"/g)).toHaveLength(4);
  });

  it('top movers are capped at five', () => {
    const many = [0.1, 0.7, 0.3, 0.9, 0.2, 0.5, 0.4].map((delta, i) =>
      makeEvent({
        id: `e${i}`,
        holder: `Fund ${i}`,
        delta,
        current: { value: 1 + delta, date: '2024-11-20' },
      }),
    );
    const { text } = renderEmail(digest(many), { timezone: 'UTC' });
    const movers = text.split('\n\n')[1]?.split('\n').slice(1);
    expect(movers?.map((line) => line.split(' ')[2])).toEqual(['3', '1', '5', '6', '2']);
  });

  it('escapes upstream strings in the html', () => {
    const hostile = makeEvent({
      holder: '<img src=x onerror=alert(1)>',
      issuer: { id: 'X', name: 'A & <B>' },
    });
    const { html, text } = renderEmail(digest([hostile]), { timezone: 'UTC' });
    expect(html).not.toMatch(/<img|<B>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('A &amp; &lt;B&gt;');
    expect(text).toContain('A & <B>: total disclosed short');
  });

  it('an empty digest says so, with its period', () => {
    const empty = renderEmail(digest([]), { timezone: 'UTC' });
    expect(empty.subject).toBe(
      'Short positions digest: no changes, 20 Nov 07:30 – 21 Nov 07:30 (Europe/London)',
    );
    expect(empty.text).toBe(
      [
        'Short positions digest: no changes',
        'Period: 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)',
        '',
        'No changes in this period.',
        '',
        '--',
        'shortwatch digest · 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)',
        '',
      ].join('\n'),
    );
    expect(empty.html).toContain('No changes in this period.');
    expect(empty.html).not.toContain('Top movers');
  });

  it.each([
    {
      name: 'one change, summer time in London',
      period: { from: '2024-06-20T06:30:00.000Z', to: '2024-06-21T06:30:00.000Z', timezone: 'Europe/London' },
      subject: 'Short positions digest: 1 change, 20 Jun 07:30 – 21 Jun 07:30 (Europe/London)',
    },
    {
      name: 'New York, across the day',
      period: {
        from: '2024-11-20T14:30:00.000Z',
        to: '2024-11-21T14:30:00.000Z',
        timezone: 'America/New_York',
      },
      subject: 'Short positions digest: 1 change, 20 Nov 09:30 – 21 Nov 09:30 (America/New_York)',
    },
  ])('period in the digest zone: $name', ({ period, subject }) => {
    expect(renderEmail(digest([acmeRaised], period), { timezone: 'UTC' }).subject).toBe(subject);
  });
});
