import { describe, expect, it } from 'vitest';
import { renderSlack } from '../../src/channels/slack/render.js';
import { alertLine, clockTime, plainFromMrkdwn, slackAlertLines } from '../../src/demo/alert-lines.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { makeEvent } from '../routing/events.js';

const issuer = { id: 'ISS-0001', name: 'Acme & Sons <plc>' };

function payloadOf(events: PositionEvent[]): unknown {
  const [payload] = renderSlack({ type: 'events', issuer, events });
  return payload;
}

describe('slackAlertLines: one line per event, read back from what the Slack stand-in received', () => {
  it.each([
    {
      name: 'a raise, unescaped, with the issuer first',
      events: [
        makeEvent({
          issuer,
          holder: 'Marshall Wace LLP',
          previous: { value: 1.1, date: '2026-01-05' },
          current: { value: 1.23, date: '2026-01-06' },
          detectedAt: '2026-01-06T18:00:00.000Z',
          delta: 0.13,
          issuerTotal: { before: 1.8, after: 1.93 },
        }),
      ],
      lines: ['Acme & Sons <plc>: Marshall Wace LLP raised 1.10% → 1.23% (+0.13 pp) · 2026-01-06'],
    },
    {
      name: 'an opening that crossed thresholds',
      events: [
        makeEvent({
          issuer,
          kind: 'opened',
          holder: 'Q&R <Fund>',
          previous: null,
          current: { value: 1.2, date: '2026-01-06' },
          detectedAt: '2026-01-06T18:00:00.000Z',
          delta: 1.2,
          thresholdsCrossed: [0.5, 1],
          issuerTotal: { before: 1.8, after: 3 },
        }),
      ],
      lines: ['Acme & Sons <plc>: Q&R <Fund> opened 1.20% (+1.20 pp) · 2026-01-06 · crossed 0.5%, 1%'],
    },
    {
      name: 'two events of one poll: two lines',
      // One poll: a cut and a position gone from the list; the issuer total moves by both.
      events: [
        makeEvent({
          issuer,
          holder: 'A LLP',
          kind: 'decreased',
          previous: { value: 0.8, date: '2026-03-02' },
          current: { value: 0.6, date: '2026-03-03' },
          delta: -0.2,
          issuerTotal: { before: 2.6, after: 1.8 },
        }),
        makeEvent({
          issuer,
          holder: 'B LLP',
          kind: 'closed',
          current: null,
          delta: -0.6,
          issuerTotal: { before: 2.6, after: 1.8 },
        }),
      ],
      // The lines' dates differ (the close's is not known): each dated line carries its own.
      lines: [
        'Acme & Sons <plc>: A LLP cut 0.80% → 0.60% (-0.20 pp) · 2026-03-03',
        'Acme & Sons <plc>: B LLP fell below the 0.5% disclosure threshold, no longer public · 0.60% → off the list',
      ],
    },
  ])('$name', ({ events, lines }) => {
    expect(slackAlertLines(payloadOf(events))).toEqual(lines);
  });

  it('prints the headline of a message without events (an operator notice)', () => {
    const [payload] = renderSlack({
      type: 'notice',
      key: 'access-revoked',
      severity: 'critical',
      title: 'Upstream access revoked',
      text: 'Fix the key.',
    });
    expect(slackAlertLines(payload)).toEqual(['Critical: Upstream access revoked']);
  });

  it('says so when the body is not a Slack message', () => {
    expect(slackAlertLines('not json')).toEqual(['(a payload that is not a Slack message)']);
  });
});

describe('line formatting', () => {
  it.each([
    ['bold and entities', '*A &amp; B* &lt;x&gt;', 'A & B <x>'],
    ['an escaped entity stays one level escaped', '&amp;lt;', '&lt;'],
    ['plain text', 'plain', 'plain'],
  ])('plainFromMrkdwn: %s', (_name, input, output) => {
    expect(plainFromMrkdwn(input)).toBe(output);
  });

  it('stamps each line with the local clock time and a padded channel kind', () => {
    const at = new Date(2026, 0, 5, 9, 3, 7);
    expect(clockTime(at)).toBe('09:03:07');
    expect(alertLine(at, 'slack', 'x')).toBe('09:03:07 slack  x');
    expect(alertLine(at, 'digest', 'y')).toBe('09:03:07 digest y');
  });
});
