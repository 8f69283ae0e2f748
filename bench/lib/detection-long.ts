import type { DetectionRun } from '../sim/detection-run.js';
import type { BenchTable } from './report.js';
import { fixed, quantile } from './stats.js';

/** The tail of one long run: what a few days per seed rarely show. */
export interface LongRunFigures {
  watchlistSize: number;
  days: number;
  shortwatch: Record<'mean' | 'p50' | 'p90' | 'p95' | 'p99' | 'max', number>;
  naive: Record<'mean' | 'p50' | 'p95' | 'max', number>;
  /** Days on which polls enqueued on an earlier UTC day ran (the sweep's debt carried over). */
  daysInDebt: number;
  /** The longest run of consecutive such days. */
  longestDebtDays: number;
  /** Share of shortwatch's polls that ran on a later UTC day than the sweep that enqueued them. */
  latePollShare: number;
  /** Changes detected more than 6 hours after the refresh, as a share of all detected. */
  overSixHoursShare: number;
}

const minutes = (ms: number): number => ms / 60_000;
const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / values.length;

/** Tail figures of one long run. */
export function longRunFigures(size: number, days: number, run: DetectionRun): LongRunFigures {
  const sw = run.shortwatch.latenciesMs;
  const nv = run.naive.latenciesMs;
  const late = run.shortwatch.spilledPerDay;
  let longest = 0;
  let current = 0;
  for (const count of late) {
    current = count > 0 ? current + 1 : 0;
    longest = Math.max(longest, current);
  }
  const by = run.shortwatch.requestsBy;
  const polls = by.changed + by.new + by.stale + by.interval;
  return {
    watchlistSize: size,
    days,
    shortwatch: {
      mean: minutes(mean(sw)),
      p50: minutes(quantile(sw, 0.5)),
      p90: minutes(quantile(sw, 0.9)),
      p95: minutes(quantile(sw, 0.95)),
      p99: minutes(quantile(sw, 0.99)),
      max: minutes(quantile(sw, 1)),
    },
    naive: {
      mean: minutes(mean(nv)),
      p50: minutes(quantile(nv, 0.5)),
      p95: minutes(quantile(nv, 0.95)),
      max: minutes(quantile(nv, 1)),
    },
    daysInDebt: late.filter((count) => count > 0).length,
    longestDebtDays: longest,
    latePollShare: polls === 0 ? 0 : late.reduce((s, c) => s + c, 0) / polls,
    overSixHoursShare: sw.length === 0 ? 0 : sw.filter((ms) => ms > 6 * 3_600_000).length / sw.length,
  };
}

/** The long runs as one printed table. */
export function longRunTable(title: string, figures: readonly LongRunFigures[]): BenchTable {
  return {
    title,
    columns: [
      'W',
      'days',
      'sw mean',
      'sw p50',
      'sw p90',
      'sw p95',
      'sw p99',
      'sw max',
      'naive mean',
      'naive p50',
      'naive p95',
      'naive max',
      '> 6 h',
      'days in debt',
      'longest debt',
      'late polls',
    ],
    rows: figures.map((f) => [
      f.watchlistSize,
      f.days,
      fixed(f.shortwatch.mean),
      fixed(f.shortwatch.p50),
      fixed(f.shortwatch.p90),
      fixed(f.shortwatch.p95),
      fixed(f.shortwatch.p99),
      fixed(f.shortwatch.max),
      fixed(f.naive.mean),
      fixed(f.naive.p50),
      fixed(f.naive.p95),
      fixed(f.naive.max),
      `${fixed(f.overSixHoursShare * 100)}%`,
      f.daysInDebt,
      `${f.longestDebtDays} d`,
      `${fixed(f.latePollShare * 100)}%`,
    ]),
  };
}
