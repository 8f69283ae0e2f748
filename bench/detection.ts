import { formatDuration } from '../src/config/duration.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, formatSpread, quantile, type Spread, spread } from './lib/stats.js';
import { CHANGE_RATE, type DetectionRun, runDetection } from './sim/detection-run.js';

const SIZES = [10, 100, 500, 900];
const REQUEST_MS = 25;
/** A what-if: staleness sweeps that cannot land on a refresh day, and no closed-event enrichment. */
const WHAT_IF = { maxStaleness: '3d', enrichClosed: false };

interface Scale {
  seeds: number;
  /** Days with a refresh, by watchlist size: small watchlists see few changes a day, so they run longer. */
  days: (size: number) => number;
  drainDays: number;
}

const FULL: Scale = { seeds: 3, days: (size) => (size <= 10 ? 30 : 8), drainDays: 2 };
const QUICK: Scale = { seeds: 1, days: (size) => (size <= 10 ? 3 : 2), drainDays: 1 };

const minutes = (ms: number): number => ms / 60_000;

/** Per-run percentiles of one poller's latencies, in minutes. */
function percentiles(latenciesMs: readonly number[]): { p50: number; p95: number; max: number } {
  return {
    p50: minutes(quantile(latenciesMs, 0.5)),
    p95: minutes(quantile(latenciesMs, 0.95)),
    max: minutes(quantile(latenciesMs, 1)),
  };
}

interface SizeFigures {
  watchlistSize: number;
  plan: {
    gateInterval: string;
    maxStaleness: string;
    refreshesPerDay: number;
    plannedRequestsPerDay: number;
  };
  shortwatch: Record<'p50' | 'p95' | 'max', Spread>;
  naive: Record<'p50' | 'p95' | 'max', Spread>;
  ratio: Record<'p50' | 'p95', Spread>;
  requestsPerDay: { shortwatch: Spread; naive: Spread; available: number };
  requestsByPurposePerDay: Record<string, number>;
  samples: { shortwatch: number; naive: number; undetected: number; netted: number };
  floorMinutes: number;
}

function figures(size: number, runs: DetectionRun[], scale: Scale): SizeFigures {
  const sw = runs.map((r) => percentiles(r.shortwatch.latenciesMs));
  const nv = runs.map((r) => percentiles(r.naive.latenciesMs));
  const first = runs[0];
  if (!first) throw new Error('no runs');
  const simulatedDays = scale.days(size) + 1 + scale.drainDays;
  const by: Record<string, number> = {};
  for (const run of runs) {
    for (const [purpose, count] of Object.entries(run.shortwatch.requestsBy)) {
      by[purpose] = (by[purpose] ?? 0) + count / simulatedDays / runs.length;
    }
  }
  const { config, plan } = first;
  return {
    watchlistSize: size,
    plan: {
      gateInterval: formatDuration(plan.gateIntervalMs),
      maxStaleness: formatDuration(plan.maxStalenessMs),
      refreshesPerDay: plan.refreshesPerDay,
      plannedRequestsPerDay: plan.requestsPerDay,
    },
    shortwatch: {
      p50: spread(sw.map((p) => p.p50)),
      p95: spread(sw.map((p) => p.p95)),
      max: spread(sw.map((p) => p.max)),
    },
    naive: {
      p50: spread(nv.map((p) => p.p50)),
      p95: spread(nv.map((p) => p.p95)),
      max: spread(nv.map((p) => p.max)),
    },
    ratio: {
      p50: spread(nv.map((p, i) => p.p50 / (sw[i]?.p50 ?? Number.NaN))),
      p95: spread(nv.map((p, i) => p.p95 / (sw[i]?.p95 ?? Number.NaN))),
    },
    requestsPerDay: {
      shortwatch: spread(runs.map((r) => quantile(r.shortwatch.requestsPerDay, 0.5))),
      naive: spread(runs.map((r) => quantile(r.naive.requestsPerDay, 0.5))),
      available: config.budget.perDay - config.budget.reserve,
    },
    requestsByPurposePerDay: Object.fromEntries(Object.entries(by).map(([k, v]) => [k, Math.round(v)])),
    samples: {
      shortwatch: runs.reduce((s, r) => s + r.shortwatch.latenciesMs.length, 0),
      naive: runs.reduce((s, r) => s + r.naive.latenciesMs.length, 0),
      undetected: runs.reduce((s, r) => s + r.shortwatch.undetected + r.naive.undetected, 0),
      netted: runs.reduce((s, r) => s + r.shortwatch.netted, 0),
    },
    floorMinutes: size / config.budget.perMinute,
  };
}

function simulate(
  sizes: readonly number[],
  scale: Scale,
  options: BenchOptions,
  poll: Record<string, unknown> = {},
): SizeFigures[] {
  return sizes.map((size) => {
    const runs: DetectionRun[] = [];
    for (let seed = 1; seed <= scale.seeds; seed++) {
      runs.push(
        runDetection({
          watchlistSize: size,
          seed,
          days: scale.days(size),
          drainDays: scale.drainDays,
          requestMs: REQUEST_MS,
          poll,
        }),
      );
    }
    options.progress(`detection: W=${size} ${JSON.stringify(poll)} done`);
    return figures(size, runs, scale);
  });
}

const m = (s: Spread): string => formatSpread(s, 1);

/** Detection latency within the real budget: a virtual-clock simulation of the real planner and gate. */
export const detection: Benchmark = {
  name: 'detection',
  summary: 'time from a dataset refresh to the event, shortwatch vs a naive round-robin poller',
  async run(options: BenchOptions): Promise<BenchReport> {
    const scale = options.quick ? QUICK : FULL;
    const built = simulate(SIZES, scale, options);
    // Below 500 issuers the budget pays for several refreshes a day and the what-if changes little.
    const whatIf = simulate(
      SIZES.filter((size) => size >= 500),
      scale,
      options,
      WHAT_IF,
    );
    const latencyColumns = [
      'W',
      'gate every',
      'sw p50',
      'sw p95',
      'sw max',
      'naive p50',
      'naive p95',
      'naive max',
      'ratio p50',
      'ratio p95',
      'floor W/100',
    ];
    const latencyRow = (f: SizeFigures) => [
      f.watchlistSize,
      f.plan.gateInterval,
      m(f.shortwatch.p50),
      m(f.shortwatch.p95),
      m(f.shortwatch.max),
      m(f.naive.p50),
      m(f.naive.p95),
      m(f.naive.max),
      `${m(f.ratio.p50)}x`,
      `${m(f.ratio.p95)}x`,
      fixed(f.floorMinutes, 1),
    ];
    return {
      title: 'detection latency within the budget (virtual-clock simulation)',
      scale: [
        'VIRTUAL-CLOCK SIMULATION, not a wall-clock run: it drives the real planner (planFor → planPolling), the real',
        "gate decision (pollReason), the sweep's poll job ids (pollJobId, kept 24 h), the real diff (diffPositions) and",
        "the budget's Lua rules (fixed UTC windows, reserve) mirrored in memory, against a seeded sandbox Scenario.",
        `Default config: 100 req/min, 1,000/day, reserve 50, gateInterval 2m, maxStaleness 6h, concurrency 4; ${REQUEST_MS} ms per request.`,
        `${SIZES.map((size) => `W=${size}: ${scale.days(size)}`).join(', ')} days with a refresh (then ${scale.drainDays} to drain) x ${scale.seeds} seed(s); one refresh a day at a seeded random time changing ${CHANGE_RATE * 100}% of positions.`,
        'Naive poller: no gate, round-robin, the same 950 requests a day (perDay - reserve) spread evenly.',
      ],
      tables: [
        {
          title: 'Minutes from refresh to event, median over runs (range); ratio = naive / shortwatch',
          columns: latencyColumns,
          rows: built.map(latencyRow),
        },
        {
          title: "Requests per day (median day; range over runs) and shortwatch's by purpose (mean a day)",
          columns: [
            'W',
            'sw req/day',
            'naive req/day',
            'available',
            'planned',
            'gate',
            'changed+new',
            'stale',
            'enrich',
            'refreshes/day planned',
          ],
          rows: built.map((f) => [
            f.watchlistSize,
            m(f.requestsPerDay.shortwatch),
            m(f.requestsPerDay.naive),
            f.requestsPerDay.available,
            f.plan.plannedRequestsPerDay,
            f.requestsByPurposePerDay.gate ?? 0,
            (f.requestsByPurposePerDay.changed ?? 0) + (f.requestsByPurposePerDay.new ?? 0),
            f.requestsByPurposePerDay.stale ?? 0,
            f.requestsByPurposePerDay.enrich ?? 0,
            f.plan.refreshesPerDay,
          ]),
        },
        {
          title: `What-if, same runs with poll ${JSON.stringify(WHAT_IF)}: minutes from refresh to event`,
          columns: latencyColumns,
          rows: whatIf.map(latencyRow),
        },
      ],
      notes: [
        'The floor: at 100 requests a minute a sweep of W issuers cannot finish before W/100 minutes, so the last issuer of a sweep waits at least that long after the gate sees the refresh.',
        `Where the budget pays for one refresh a day (W >= ${SIZES.find((_, i) => (built[i]?.plan.refreshesPerDay ?? 2) <= 1) ?? '-'} here) the plan spends the whole day (planned = available) and maxStaleness is raised to 1d. Any extra request then takes a token the next refresh sweep needs, and its remaining polls wait for the next UTC day (the p95/max): a staleness sweep (a refresh later in the day than the last one makes every snapshot a day old first), closed-event enrichment (not in the plan), or a refresh sweep that runs past midnight.`,
        'The what-if table removes the first two; a refresh sweep running past midnight can still push polls to the next day.',
        'Staleness polls get the job id stale-<dataset version>, kept 24 h: while the dataset does not move, an issuer gets at most one staleness poll every 24 h, not one per maxStaleness (W=10: about 1 a day per issuer with maxStaleness 6h, not 3).',
        `Samples (changed issuers detected, all runs): ${built.map((f) => `W=${f.watchlistSize}: ${f.samples.shortwatch}`).join(', ')}; undetected at the end: ${built.reduce((s, f) => s + f.samples.undetected, 0)}.`,
      ],
      data: {
        scale: { ...scale, days: Object.fromEntries(SIZES.map((size) => [size, scale.days(size)])) },
        requestMs: REQUEST_MS,
        changeRate: CHANGE_RATE,
        built,
        whatIf: { poll: WHAT_IF, figures: whatIf },
      },
    };
  },
};
