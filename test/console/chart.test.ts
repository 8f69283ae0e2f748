import { describe, expect, it } from 'vitest';
import { stepChart, timeDomain } from '../../src/console/chart/step-chart.js';
import { issuerSeries } from '../../src/console/data/holder-series.js';
import { renderIssuer } from '../../src/console/pages/issuer.js';
import type { PositionEvent } from '../../src/positions/types.js';

const at = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** A `closed` event seen in November of a position last disclosed in March. */
function closed(holder: string, value: number, date: string): PositionEvent {
  return {
    id: `c-${holder}`,
    kind: 'closed',
    issuer: { id: 'ISS-1', name: 'Asml' },
    holderKey: holder.toLowerCase(),
    holder,
    previous: { value, date },
    current: null,
    delta: -value,
    thresholdsCrossed: [],
    issuerTotal: { before: 1.2, after: 0.6 },
    detectedAt: '2026-11-20T08:00:00.000Z',
  };
}

const NOW = Date.parse('2026-11-26T10:00:00Z');
const active = new Map([['held', { label: 'Held', value: 0.6, date: '2026-01-10' }]]);
const events = [closed('Vireo', 0.51, '2026-03-02')];

/** The svg's geometry: x 52..(880-16) over the domain, y 0% at 292 up to the top tick (0.6%) at 12. */
function geometry(from: number, to: number, top: number) {
  return {
    x: (t: number) => Math.round((52 + ((t - from) / (to - from)) * (864 - 52)) * 10) / 10,
    y: (v: number) => Math.round((292 + (v / top) * (12 - 292)) * 10) / 10,
  };
}

describe('charts on the register clock', () => {
  const series = issuerSeries({ events, active });

  it('keeps a closed holder at its last listed value on its disclosure date, marked as its last', () => {
    const vireo = series.find((s) => s.key === 'vireo');
    expect(vireo?.current).toBeNull();
    expect(vireo?.points).toEqual([{ t: at('2026-03-02'), v: 0.51, last: true }]);
  });

  it('draws the 0.51% holder at 0.51% on 2 March and ends its line there, never at 0', () => {
    const svg = stepChart(series, { now: NOW, title: 'T' }).value;
    const { from, to } = timeDomain(series, NOW);
    const { x, y } = geometry(from, to, 0.6);
    const vireo = /<path class="line s0 d0" d="([^"]*)"/.exec(svg)?.[1];
    expect(vireo).toBe(`M${x(at('2026-03-02'))} ${y(0.51)}`);
    expect(svg).toContain(`<circle class="off s0 d0" cx="${x(at('2026-03-02'))}" cy="${y(0.51)}"`);
    expect(svg).toContain('Vireo: off the list after 2026-03-02 (last listed 0.51%)');
    // The held one starts at its disclosure and runs to the axis' end.
    const held = /<path class="line s1 d0" d="([^"]*)"/.exec(svg)?.[1];
    expect(held).toBe(`M${x(at('2026-01-10'))} ${y(0.6)}H${x(to)}`);
  });

  it('spans the data, not the months to a distant today, and says where today is', () => {
    const { from, to, farToday } = timeDomain(series, NOW);
    expect(from).toBe(at('2026-01-10'));
    expect(farToday).toBe(true);
    expect(to).toBeLessThan(at('2026-03-10'));
    expect(stepChart(series, { now: NOW, title: 'T' }).value).toContain('today 26 Nov 2026 →');
  });

  it('reaches today without a marker when the data is recent', () => {
    const recent = timeDomain(series, at('2026-03-12'));
    expect(recent).toEqual({ from: at('2026-01-10'), to: at('2026-03-12'), farToday: false });
    expect(stepChart(series, { now: at('2026-03-12'), title: 'T' }).value).not.toContain('today');
  });

  it('breaks the line of a position that left the list and came back', () => {
    const back: PositionEvent = {
      ...closed('Vireo', 0.7, '2026-02-01'),
      id: 'o',
      kind: 'opened',
      previous: null,
      current: { value: 0.55, date: '2026-02-20' },
      delta: 0.55,
      detectedAt: '2026-11-21T08:00:00.000Z',
    };
    const twice = issuerSeries({
      events: [closed('Vireo', 0.7, '2026-02-01'), back],
      active: new Map([['vireo', { label: 'Vireo', value: 0.55, date: '2026-02-20' }]]),
    });
    const svg = stepChart(twice, { now: at('2026-02-25'), title: 'T', width: 252, height: 140 }).value;
    // Two sub-paths (M … M …): no segment joins the close on 1 Feb to the reopening on 20 Feb.
    expect(/d="(M[^"]*)"/.exec(svg)?.[1]?.match(/M/g)).toHaveLength(2);
    expect(svg).not.toMatch(/V112/);
  });

  it('lists in the table what the chart draws: the held holder, and the closed one off the list', () => {
    const page = renderIssuer(
      {
        id: 'ISS-1',
        name: 'Asml',
        snapshot: {
          issuerId: 'ISS-1',
          issuerName: 'Asml',
          positions: { held: { holder: 'Held', value: 0.6, date: '2026-01-10' } },
          lastUpdated: null,
          polledAt: '2026-11-26T09:00:00.000Z',
        },
        snapshotProblem: null,
        events,
        history: null,
        dayLeft: 10,
        nowMs: NOW,
      },
      'token',
    ).value;
    expect(page).toContain('<td class="num">0.60%</td><td>2026-01-10</td>');
    expect(page).toMatch(
      /Off the list<\/h2>.*Vireo<\/a><\/td><td class="num">0.51%<\/td><td>2026-03-02<\/td>/s,
    );
    expect(page).toContain('off the list (last listed 0.51%)');
  });
});
