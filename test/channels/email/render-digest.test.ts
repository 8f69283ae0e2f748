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
      'Short positions digest: 4 changes (1 opening, 1 fall below 0.5%, 1 holder with 2 changes), 20 Nov 07:30 – 21 Nov 07:30 (Europe/London)',
    );
  });

  it("text: period, no top movers in a short digest, issuers newest first, each one's events in order", () => {
    expect(email.text).toBe(
      [
        'Short positions digest: 4 changes',
        'Period: 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)',
        '',
        // One holder's two changes in the period: one line with the sequence, oldest first.
        'Acme plc: total disclosed short 3.40% → 3.27% (-0.13 pp)',
        '* Marshall Wace 2 changes: 1.11% → 1.23% → 0.98% (-0.13 pp) on 2024-11-21',
        '',
        'Beta Group: total disclosed short 0.00% → 0.80% (+0.80 pp)',
        '* Citadel opened 0.80% (+0.80 pp) on 2024-11-20',
        '  Thresholds crossed: 0.5%',
        '',
        "Gamma Ltd: total disclosed short 1.55% → 1.00% (-0.55 pp); the total counts listed positions only: Marshall Wace's last listed 0.55% left the list with it",
        '* Marshall Wace fell below the 0.5% disclosure threshold (0.45%), no longer public: 0.55% → off the list at 0.45% (-0.10 pp) on 2024-11-20',
        '  Thresholds crossed: 0.5%',
        '',
        'Below 0.5%: a position under the 0.5% public disclosure threshold is no longer published; it is not known to be covered.',
        '',
        '--',
        'shortwatch digest · 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)',
        '',
      ].join('\n'),
    );
  });

  it('html: period, issuer sections newest first, one row per holder, its changes oldest first', () => {
    const { html } = email;
    expect(html).toContain('Period: 20 Nov 2024 07:30 – 21 Nov 2024 07:30 (Europe/London)');
    const headings = [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['Acme plc', 'Beta Group', 'Gamma Ltd']);
    expect(html).toContain('Total disclosed short 3.40% → 3.27% (-0.13 pp)');
    expect(html.match(/<tr><td class="sw-td/g)).toHaveLength(3);
    const changes = [...html.matchAll(/<td class="sw-td sw-word"[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(changes).toEqual([
      '2 changes',
      'opened',
      'fell below the 0.5% disclosure threshold (0.45%), no longer public',
    ]);
    const values = [
      ...html.matchAll(/<td class="sw-td sw-value" data-label="Old → new"[^>]*>(.*?)<\/td>/g),
    ].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, ''));
    expect(values).toEqual(['1.11% → 1.23% → 0.98%', '0.80%', '0.55% → off the list at 0.45%']);
  });

  it('a close reads after the cut that came before it, whatever order the events arrive in', () => {
    const cutFirst = makeEvent({
      id: 'cut',
      kind: 'decreased',
      previous: { value: 0.62, date: '2024-11-19' },
      current: { value: 0.56, date: '2024-11-20' },
      delta: -0.06,
      detectedAt: '2024-11-20T08:00:00.000Z',
    });
    const thenClosed = makeEvent({
      id: 'closed',
      kind: 'closed',
      previous: { value: 0.56, date: '2024-11-20' },
      current: null,
      final: { value: 0.47, date: '2024-11-21' },
      delta: -0.56,
      detectedAt: '2024-11-21T06:00:00.000Z',
    });
    const { text } = renderEmail(digest([thenClosed, cutFirst]), { timezone: 'UTC' });
    // One holder: one line, its values in the order they happened.
    expect(text.split('\n').filter((line) => line.startsWith('* '))).toEqual([
      '* Marshall Wace 2 changes: 0.62% → 0.56% → off the list at 0.47% (-0.15 pp) on 2024-11-21',
    ]);
  });

  it.each([
    { name: '9 changes: no top movers (they would repeat most of the list)', count: 9, movers: [] },
    {
      name: '10 changes: the 5 largest moves by |Δ|, ties to the newest',
      count: 10,
      movers: ['3', '1', '8', '5', '6'],
    },
  ])('$name', ({ count, movers }) => {
    const deltas = [0.1, 0.7, 0.3, 0.9, 0.2, 0.5, 0.4, 0.05, 0.5, 0.01];
    // Ten holders raising in ten polls; the issuer total moves by each raise in turn.
    const totals = deltas.map((_, i) => 3 + deltas.slice(0, i).reduce((sum, d) => sum + d, 0));
    const many = deltas.slice(0, count).map((delta, i) =>
      makeEvent({
        id: `e${i}`,
        holder: `Fund ${i}`,
        holderKey: `fund${i}`,
        delta,
        previous: { value: 1, date: '2024-11-19' },
        current: { value: 1 + delta, date: '2024-11-20' },
        issuerTotal: { before: totals[i] ?? 3, after: (totals[i] ?? 3) + delta },
        detectedAt: `2024-11-20T08:0${i}:00.000Z`,
      }),
    );
    const { text, html } = renderEmail(digest(many), { timezone: 'UTC' });
    const lines = text.split('\n');
    const start = lines.indexOf('Top movers');
    const listed = start < 0 ? [] : lines.slice(start + 1, start + 1 + movers.length);
    expect(listed.map((line) => /Fund (\d+)/.exec(line)?.[1])).toEqual(movers);
    expect(html.includes('Top movers')).toBe(movers.length > 0);
    if (movers.length > 0)
      expect(listed[0]).toBe('* Acme plc: Fund 3 raised 1.00% → 1.90% (+0.90 pp) on 2024-11-20');
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
      subject: 'Short positions digest: 1 change (1 rise), 20 Jun 07:30 – 21 Jun 07:30 (Europe/London)',
    },
    {
      name: 'New York, across the day',
      period: {
        from: '2024-11-20T14:30:00.000Z',
        to: '2024-11-21T14:30:00.000Z',
        timezone: 'America/New_York',
      },
      subject: 'Short positions digest: 1 change (1 rise), 20 Nov 09:30 – 21 Nov 09:30 (America/New_York)',
    },
    {
      name: 'one instant (a period sealed as it opened)',
      period: { from: '2024-11-23T08:45:00.000Z', to: '2024-11-23T08:45:00.000Z', timezone: 'Europe/London' },
      subject: 'Short positions digest: 1 change (1 rise), 23 Nov 08:45 (Europe/London)',
    },
    {
      name: 'within one day',
      period: { from: '2024-11-23T07:30:00.000Z', to: '2024-11-23T08:45:00.000Z', timezone: 'Europe/London' },
      subject: 'Short positions digest: 1 change (1 rise), 23 Nov 07:30 – 08:45 (Europe/London)',
    },
  ])('period in the digest zone: $name', ({ period, subject }) => {
    expect(renderEmail(digest([acmeRaised], period), { timezone: 'UTC' }).subject).toBe(subject);
  });
});
