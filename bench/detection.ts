import { formatDuration } from '../src/config/duration.js';
import { BLIND_SIZES, blindFigures, blindTable } from './lib/detection-blind.js';
import { type LongRunFigures, longRunFigures, longRunTable } from './lib/detection-long.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, formatSpread, quantile, type Spread, spread } from './lib/stats.js';
import { CHANGE_RATE, type DetectionRun, runDetection } from './sim/detection-run.js';

const SIZES = [10, 100, 500, 900];
const REQUEST_MS = 25;

interface Scale {
  seeds: number;
  /** Days with a refresh, by watchlist size: small watchlists see few changes a day, so they run longer. */
  days: (size: number) => number;
  drainDays: number;
  /** One long run per size, for the tail that a few days per seed rarely show. */
  long: { sizes: number[]; days: number; seed: number };
}

const FULL: Scale = {
  seeds: 3,
  days: (size) => (size <= 10 ? 30 : 8),
  drainDays: 2,
  long: { sizes: [500, 700, 900], days: 180, seed: 1 },
};
const QUICK: Scale = {
  seeds: 1,
  days: (size) => (size <= 10 ? 3 : 2),
  drainDays: 1,
  long: { sizes: [900], days: 10, seed: 1 },
};

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
  /** Every run's latencies pooled, minutes: what the blind table sets beside its own pooled figures. */
  pooled: { p50: number; p95: number };
  requestsPerDay: { shortwatch: Spread; naive: Spread; available: number; reserve: number };
  requestsByPurposePerDay: Record<string, number>;
  /** Means a day over all runs: closed events sent without enrichment, polls run on a later UTC day. */
  enrichSkippedPerDay: number;
  latePollsPerDay: number;
  /** Lowest `day.left` seen when the enrichment guard let a poll try for a token (every run). */
  enrichLowestDayLeft: number;
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
  const perDay = (count: (run: DetectionRun) => number): number =>
    runs.reduce((s, r) => s + count(r), 0) / simulatedDays / runs.length;
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
    pooled: percentiles(runs.flatMap((r) => r.shortwatch.latenciesMs)),
    requestsPerDay: {
      shortwatch: spread(runs.map((r) => quantile(r.shortwatch.requestsPerDay, 0.5))),
      naive: spread(runs.map((r) => quantile(r.naive.requestsPerDay, 0.5))),
      available: config.budget.perDay - config.budget.reserve,
      reserve: config.budget.reserve,
    },
    requestsByPurposePerDay: Object.fromEntries(Object.entries(by).map(([k, v]) => [k, Math.round(v)])),
    enrichSkippedPerDay: perDay((r) => r.shortwatch.enrichSkipped),
    latePollsPerDay: perDay((r) => r.shortwatch.spilledPerDay.reduce((a, b) => a + b, 0)),
    enrichLowestDayLeft: runs
      .flatMap((r) => r.shortwatch.enrichDayLeft)
      .reduce((low, left) => Math.min(low, left), Number.POSITIVE_INFINITY),
    samples: {
      shortwatch: runs.reduce((s, r) => s + r.shortwatch.latenciesMs.length, 0),
      naive: runs.reduce((s, r) => s + r.naive.latenciesMs.length, 0),
      undetected: runs.reduce((s, r) => s + r.shortwatch.undetected + r.naive.undetected, 0),
      netted: runs.reduce((s, r) => s + r.shortwatch.netted, 0),
    },
    floorMinutes: size / config.budget.perMinute,
  };
}

function simulate(sizes: readonly number[], scale: Scale, options: BenchOptions): SizeFigures[] {
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
        }),
      );
    }
    options.progress(`detection: W=${size} done`);
    return figures(size, runs, scale);
  });
}

function longRuns(scale: Scale, options: BenchOptions): LongRunFigures[] {
  return scale.long.sizes.map((size) => {
    const run = runDetection({
      watchlistSize: size,
      seed: scale.long.seed,
      days: scale.long.days,
      drainDays: scale.drainDays,
      requestMs: REQUEST_MS,
    });
    options.progress(`detection: W=${size} long run of ${scale.long.days} days done`);
    return longRunFigures(size, scale.long.days, run);
  });
}

const m = (s: Spread): string => formatSpread(s, 1);

/** Detection latency within the budget: a virtual-clock simulation of the real planner and gate. */
export const detection: Benchmark = {
  name: 'detection',
  summary: 'time from a dataset refresh to the event, shortwatch vs a naive round-robin poller',
  async run(options: BenchOptions): Promise<BenchReport> {
    const scale = options.quick ? QUICK : FULL;
    const built = simulate(SIZES, scale, options);
    const long = longRuns(scale, options);
    const blind = blindFigures(scale, REQUEST_MS, options);
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
    const oneRefresh = built.filter((f) => f.plan.refreshesPerDay <= 1).map((f) => f.watchlistSize);
    return {
      title: 'detection latency within the budget (virtual-clock simulation)',
      scale: [
        'VIRTUAL-CLOCK SIMULATION, not a wall-clock run: it drives the real planner (planFor → planPolling), the real',
        "gate decision (pollReason), the sweep's deduplication ids (pollJobId; BullMQ deduplication holds only while a job",
        "is pending), the real diff (diffPositions), enrichClosed's rule (only while day.left - reserve > W) and the budget's",
        'Lua rules (fixed UTC windows, reserve) mirrored in memory, against a seeded sandbox Scenario.',
        `Default config: 100 req/min, 1,000/day, reserve 50, gateInterval 2m, maxStaleness 6h, concurrency 4; ${REQUEST_MS} ms per request.`,
        `${SIZES.map((size) => `W=${size}: ${scale.days(size)}`).join(', ')} days with a refresh (then ${scale.drainDays} to drain) x ${scale.seeds} seed(s); one refresh a day at a seeded random time changing ${CHANGE_RATE * 100}% of positions.`,
        `Long runs: ${scale.long.days} days, seed ${scale.long.seed}, W = ${scale.long.sizes.join(', ')}.`,
        'Naive poller: no gate, round-robin, the same 950 requests a day (perDay - reserve) spread evenly.',
        `Blind case: the same runs (W = ${BLIND_SIZES.join(', ')}) with the list and every answer saying last_updated: null; shortwatch plans with the real selectBlindPolls, the list read at every gate check (sweep.ts as it is) or at its turn (blindListDue, proposed).`,
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
            'maxStaleness',
            'gate',
            'changed+new',
            'stale',
            'enrich',
            'enrich skipped',
            'late polls',
            'refreshes/day planned',
          ],
          rows: built.map((f) => [
            f.watchlistSize,
            m(f.requestsPerDay.shortwatch),
            m(f.requestsPerDay.naive),
            f.requestsPerDay.available,
            f.plan.plannedRequestsPerDay,
            f.plan.maxStaleness,
            f.requestsByPurposePerDay.gate ?? 0,
            (f.requestsByPurposePerDay.changed ?? 0) + (f.requestsByPurposePerDay.new ?? 0),
            f.requestsByPurposePerDay.stale ?? 0,
            f.requestsByPurposePerDay.enrich ?? 0,
            fixed(f.enrichSkippedPerDay, 1),
            fixed(f.latePollsPerDay, 1),
            f.plan.refreshesPerDay,
          ]),
        },
        blindTable(blind, new Map(built.map((f) => [f.watchlistSize, f.pooled]))),
        longRunTable(
          `Long runs, one seed: minutes from refresh to event; > 6 h = share of changes found after 6 hours; debt = days on which polls of an earlier UTC day's sweep ran; late polls = their share of all polls`,
          long,
        ),
      ],
      notes: [
        'The floor: at 100 requests a minute a sweep of W issuers cannot finish before W/100 minutes, so the last issuer of a sweep waits at least that long after the gate sees the refresh.',
        `Where the budget pays for one refresh a day (W = ${oneRefresh.join(', ') || '-'} here) the planner turns maxStaleness off and the plan spends the whole day (planned = available): gate checks plus one sweep.`,
        `Closed-event enrichment spends a token only while day.left - reserve > W; the lowest day.left at which it tried, against reserve + W: ${built.map((f) => `W=${f.watchlistSize}: ${Number.isFinite(f.enrichLowestDayLeft) ? f.enrichLowestDayLeft : '-'} > ${f.requestsPerDay.reserve + f.watchlistSize}`).join(', ')}.`,
        `Deduplication holds only while a poll is pending, so while the dataset does not move an issuer gets a staleness poll every maxStaleness: ${
          built
            .filter((f) => (f.requestsByPurposePerDay.stale ?? 0) > 0)
            .map(
              (f) =>
                `W=${f.watchlistSize}: ${fixed((f.requestsByPurposePerDay.stale ?? 0) / f.watchlistSize, 1)} a day per issuer (maxStaleness ${f.plan.maxStaleness})`,
            )
            .join(', ') || 'none here'
        }.`,
        "Late polls: a refresh the gate sees after its last check of a UTC day, or a sweep running past midnight, spends the next day's tokens; that day's own sweep then runs short and its remaining polls wait for the next midnight. The debt is repaid only by the gate checks that find the day spent: about (available - W) / 2 a day, so quickly at W=500 and over weeks at W=900 (long runs).",
        `Blind, sweep as is: the list is still read at every gate check while it carries no version, and the checks still due today are set aside from the polls (${blind.map((f) => `W=${f.watchlistSize}: ${fixed(f.asIs.listReadsPerDay, 0)} reads, ${fixed(f.asIs.pollsPerDay, 0)} polls a day`).join('; ')}), so detection is ${blind.map((f) => `${fixed(f.asIs.mean / f.roundRobin.mean, 1)}x`).join(', ')} the round-robin's mean latency. Read at its turn in the rotation (at most 1% of the tokens), blind detection polls at the round-robin's pace (${blind.map((f) => `W=${f.watchlistSize}: ${fixed(f.listAtTurn.pollsPerDay, 0)} polls a day against ${fixed(f.roundRobin.pollsPerDay, 0)}`).join('; ')}) and its mean latency is ${blind.map((f) => `${fixed(f.listAtTurn.mean / f.roundRobin.mean, 2)}x`).join(', ')} the round-robin's; with few samples (column) the gap is the phase of the two rotations against the refresh times, not their pace.`,
        `Samples (changed issuers detected, all runs): ${built.map((f) => `W=${f.watchlistSize}: ${f.samples.shortwatch}`).join(', ')}; undetected at the end: ${built.reduce((s, f) => s + f.samples.undetected, 0)}.`,
      ],
      data: {
        scale: { ...scale, days: Object.fromEntries(SIZES.map((size) => [size, scale.days(size)])) },
        requestMs: REQUEST_MS,
        changeRate: CHANGE_RATE,
        built,
        long,
        blind,
      },
    };
  },
};
