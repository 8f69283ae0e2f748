import { type DetectionRun, runDetection } from '../sim/detection-run.js';
import type { BlindOptions } from '../sim/shortwatch-poller.js';
import type { BenchOptions, BenchTable } from './report.js';
import { fixed, quantile } from './stats.js';

/** The watchlist sizes of the blind case (the W = 10, 100, 900). */
export const BLIND_SIZES = [10, 100, 900];

/** How the blind runs are made: as the detection benchmark's short runs. */
export interface BlindScale {
  seeds: number;
  days: (size: number) => number;
  drainDays: number;
}

/** Latency over every run pooled, in minutes, and what the poller spent a day. */
interface Pooled {
  p50: number;
  p95: number;
  mean: number;
  samples: number;
  /** Mean a simulated day: issuer-list reads and polls. */
  listReadsPerDay: number;
  pollsPerDay: number;
}

/** One size: the sweep as it runs, the sweep reading the list at its turn, the round-robin. */
export interface BlindFigures {
  watchlistSize: number;
  asIs: Pooled;
  listAtTurn: Pooled;
  roundRobin: Pooled;
}

const minutes = (ms: number): number => ms / 60_000;

function pooled(latenciesMs: readonly number[], listReads: number, polls: number, days: number): Pooled {
  return {
    p50: minutes(quantile(latenciesMs, 0.5)),
    p95: minutes(quantile(latenciesMs, 0.95)),
    mean: minutes(latenciesMs.reduce((s, l) => s + l, 0) / latenciesMs.length),
    samples: latenciesMs.length,
    listReadsPerDay: listReads / days,
    pollsPerDay: polls / days,
  };
}

function runs(size: number, scale: BlindScale, blind: BlindOptions, requestMs: number): DetectionRun[] {
  return Array.from({ length: scale.seeds }, (_, i) =>
    runDetection({
      watchlistSize: size,
      seed: i + 1,
      days: scale.days(size),
      drainDays: scale.drainDays,
      requestMs,
      unversioned: blind,
    }),
  );
}

function shortwatch(all: readonly DetectionRun[], days: number): Pooled {
  const by = (key: 'gate' | 'blind') => all.reduce((s, r) => s + r.shortwatch.requestsBy[key], 0);
  return pooled(
    all.flatMap((r) => r.shortwatch.latenciesMs),
    by('gate'),
    by('blind'),
    days * all.length,
  );
}

/**
 * The blind case: every size over a list that says `last_updated: null`, with the sweep as it runs
 * (the list read at every gate check) and as proposed (the list read at its turn in the rotation),
 * beside a round-robin on the same budget over the same refreshes.
 */
export function blindFigures(scale: BlindScale, requestMs: number, options: BenchOptions): BlindFigures[] {
  return BLIND_SIZES.map((size) => {
    const days = scale.days(size) + 1 + scale.drainDays;
    const asIs = runs(size, scale, {}, requestMs);
    const atTurn = runs(size, scale, { listInRotation: true }, requestMs);
    const naivePolls = asIs.reduce((s, r) => s + r.naive.requestsPerDay.reduce((a, b) => a + b, 0), 0);
    const measured = scale.days(size) * asIs.length;
    options.progress(`detection: blind W=${size} done`);
    return {
      watchlistSize: size,
      asIs: shortwatch(asIs, days),
      listAtTurn: shortwatch(atTurn, days),
      roundRobin: {
        ...pooled(
          asIs.flatMap((r) => r.naive.latenciesMs),
          0,
          0,
          1,
        ),
        pollsPerDay: naivePolls / measured,
      },
    };
  });
}

const pair = (p: Pooled): string => `${fixed(p.p50, 1)} / ${fixed(p.p95, 1)}`;

/** The blind table, beside the versioned figures (`versioned`: p50 and p95 by size) of the same run. */
export function blindTable(
  figures: readonly BlindFigures[],
  versioned: ReadonlyMap<number, { p50: number; p95: number }>,
): BenchTable {
  return {
    title:
      'A list without versions (last_updated: null): minutes from change to poll, p50 / p95 (all runs pooled); mean ratio = shortwatch / round-robin',
    columns: [
      'W',
      'versioned (gate)',
      'blind, list read every tick (rejected design)',
      'blind (shortwatch: list at its turn)',
      'round-robin',
      'ratio, list every tick',
      'ratio (shortwatch)',
      'list reads/day, every tick',
      'list reads/day (shortwatch)',
      'polls/day, every tick',
      'polls/day (shortwatch)',
      'round-robin polls/day',
      'samples',
    ],
    rows: figures.map((f) => {
      const gate = versioned.get(f.watchlistSize);
      return [
        f.watchlistSize,
        gate ? `${fixed(gate.p50, 1)} / ${fixed(gate.p95, 1)}` : '-',
        pair(f.asIs),
        pair(f.listAtTurn),
        pair(f.roundRobin),
        `${fixed(f.asIs.mean / f.roundRobin.mean, 2)}x`,
        `${fixed(f.listAtTurn.mean / f.roundRobin.mean, 2)}x`,
        fixed(f.asIs.listReadsPerDay, 1),
        fixed(f.listAtTurn.listReadsPerDay, 1),
        fixed(f.asIs.pollsPerDay, 0),
        fixed(f.listAtTurn.pollsPerDay, 0),
        fixed(f.roundRobin.pollsPerDay, 0),
        f.roundRobin.samples,
      ];
    }),
  };
}
