import { describe, expect, it } from 'vitest';
import { stepChart } from '../../src/console/chart/step-chart.js';
import { aggregateCharts } from '../../src/console/data/aggregate-series.js';
import { makeEvent } from '../routing/events.js';
import { eventsBetween, issuer, named, read } from './register-reads.js';

const at = (date: string) => Date.parse(`${date}T00:00:00Z`);
const ANSP = { namesHolders: false, threshold: 0.2 };
const ISIN = 'GB00BF8Q6K64';

describe('aggregateCharts: the aggregate of one issuer over time, from the log and the kept read', () => {
  it('steps through each logged change and the value read now, and names the threshold it counts from', () => {
    const r1 = read([issuer(ISIN, 'ABRDN PLC', { percent: 5.81, date: '2026-07-09', threshold: 0.2 })], ANSP);
    const r2 = read([issuer(ISIN, 'ABRDN PLC', { percent: 6.12, date: '2026-07-20', threshold: 0.2 })], ANSP);
    const r3 = read([issuer(ISIN, 'ABRDN PLC', { percent: 6.45, date: '2026-08-03', threshold: 0.2 })], ANSP);
    const events = [
      ...eventsBetween(r2, r3, '2026-08-05T07:00:00.000Z'),
      ...eventsBetween(r1, r2, '2026-07-22T07:00:00.000Z'),
    ];
    const charts = aggregateCharts({ events, issuer: r3.issuers[0] });
    expect(charts).toHaveLength(1);
    expect(charts[0]?.thresholdPercent).toBe(0.2);
    expect(charts[0]?.series).toEqual([
      {
        key: 'aggregate',
        label: 'Aggregate of positions from 0.2%',
        points: [
          { t: at('2026-07-09'), v: 5.81 },
          { t: at('2026-07-20'), v: 6.12 },
          { t: at('2026-08-03'), v: 6.45 },
        ],
        current: 6.45,
      },
    ]);
  });

  it('never joins a sum from 0.1% to a sum from 0.5%: two thresholds are two charts', () => {
    const from01 = eventsBetween(
      read([issuer(ISIN, 'X', { percent: 1.5, date: '2026-01-05', threshold: 0.1 })], ANSP),
      read([issuer(ISIN, 'X', { percent: 2.05, date: '2026-01-12', threshold: 0.1 })], ANSP),
      '2026-01-13T07:00:00.000Z',
    );
    const now = issuer(ISIN, 'X', { percent: 1.2, date: '2026-02-02', threshold: 0.5 });
    const charts = aggregateCharts({ events: from01, issuer: now });
    expect(charts.map((c) => c.thresholdPercent)).toEqual([0.1, 0.5]);
    expect(charts.map((c) => c.series.map((s) => s.label))).toEqual([
      ['Aggregate of positions from 0.1%'],
      ['Aggregate of positions from 0.5%'],
    ]);
    // The 0.1% line ends with the events (no value of it now); the 0.5% one is the value read now.
    expect(charts[0]?.series[0]?.current).toBeNull();
    expect(charts[0]?.series[0]?.points.at(-1)).toEqual({ t: at('2026-01-12'), v: 2.05, last: true });
    expect(charts[1]?.series[0]?.points).toEqual([{ t: at('2026-02-02'), v: 1.2 }]);
  });

  it('ends the line where the aggregate stopped being published, never drops it to 0', () => {
    const ended = eventsBetween(
      read([issuer(ISIN, 'X', { percent: 0.9, date: '2026-03-02', threshold: 0.2 })], ANSP),
      read([issuer(ISIN, 'X')], ANSP),
      '2026-03-10T07:00:00.000Z',
    );
    expect(ended.map((e) => e.aggregate?.kind)).toEqual(['aggregate-ended']);
    const [chart] = aggregateCharts({ events: ended, issuer: issuer(ISIN, 'X') });
    expect(chart?.series[0]?.points).toEqual([{ t: at('2026-03-02'), v: 0.9, last: true }]);
    const svg = stepChart(chart?.series ?? [], { now: at('2026-03-12'), title: 'T', axisLabel: 'A' }).value;
    expect(svg).toContain('off the list after 2026-03-02');
  });

  it('draws a kept history oldest first, a value of 0 (no aggregate) as the end of the line before it', () => {
    const kept = {
      ...issuer(ISIN, 'X', { percent: 1.4, date: '2026-05-04', threshold: 0.5 }),
      aggregateHistory: [
        { date: '2026-05-04', percent: 1.4 },
        { date: '2026-04-01', percent: 0 },
        { date: '2026-03-01', percent: 0.8 },
        { date: '2026-02-01', percent: 0.6 },
      ],
    };
    const [chart] = aggregateCharts({ events: [], issuer: kept });
    expect(chart?.series[0]?.points).toEqual([
      { t: at('2026-02-01'), v: 0.6 },
      { t: at('2026-03-01'), v: 0.8, last: true },
      { t: at('2026-05-04'), v: 1.4 },
    ]);
  });

  it('takes a revision as the value of its date, replacing the one logged before', () => {
    const history = (percent: number) => [
      { date: '2026-02-01', percent: 0.6 },
      { date: '2026-03-01', percent },
    ];
    const x = (percent: number) => ({ ...issuer(ISIN, 'X'), aggregateHistory: history(percent) });
    const revised = eventsBetween(read([x(0.7)], ANSP), read([x(0.8)], ANSP), '2026-05-05T07:00:00.000Z');
    expect(revised.map((e) => e.aggregate?.kind)).toEqual(['aggregate-revised']);
    const kept = { ...issuer(ISIN, 'X'), aggregateHistory: history(0.7) };
    const [chart] = aggregateCharts({
      events: revised,
      issuer: kept,
      registerThreshold: 0.2,
    });
    expect(chart?.thresholdPercent).toBe(0.2);
    expect(chart?.series[0]?.points).toEqual([
      { t: at('2026-02-01'), v: 0.6 },
      { t: at('2026-03-01'), v: 0.8, last: true },
    ]);
  });

  it('draws the aggregate alone: what lies below the public threshold, named holders and scope events are left out', () => {
    const holders = [named('Citadel Advisors Europe Limited', 1.22, '2026-01-05')];
    const skf = (percent: number, date: string) =>
      issuer('SE0000108227', 'SKF', { percent, date, threshold: 0.1 }, holders);
    const swedish = { namesHolders: true, threshold: 0.1 };
    const moved = eventsBetween(
      read([skf(4.87, '2026-01-05')], swedish),
      read([skf(4.6, '2026-01-09')], swedish),
      '2026-01-10T07:00:00.000Z',
    );
    expect(moved.map((e) => e.aggregate?.kind).sort()).toEqual([
      'aggregate-changed',
      'below-threshold-moved',
    ]);
    const charts = aggregateCharts({ events: moved, issuer: skf(4.6, '2026-01-09') });
    expect(charts.map((c) => c.series.map((s) => [s.label, s.points.map((p) => p.v)]))).toEqual([
      [['Aggregate of positions from 0.1%', [4.87, 4.6]]],
    ]);
    const scope = makeEvent({ source: 'rsl', aggregate: { kind: 'scope-added' } });
    expect(aggregateCharts({ events: [makeEvent({ source: 'afm' }), scope] })).toEqual([]);
  });
});
