import type { Plan } from '../../src/budget/index.js';
import type { Config } from '../../src/config/schema.js';
import { planFor } from '../../src/jobs/plan-for.js';
import { createScenario } from '../../src/sandbox/index.js';
import { Random } from '../../src/sandbox/prng.js';
import { ChangeTracker } from './change-tracker.js';
import { benchConfig } from './detection-run.js';
import { VirtualClock } from './event-queue.js';
import { legacyPlanFor } from './legacy-planner.js';
import { LegacyPoller } from './legacy-poller.js';
import { NaivePoller } from './naive-poller.js';
import { OraclePoller } from './oracle-poller.js';
import { clusteredPublications, type Publication, uniformPublications } from './publication.js';
import { ShortwatchPoller } from './shortwatch-poller.js';
import { SkewedDataset } from './skewed-dataset.js';

/** One run of the three pollers over one skewed register. */
export interface ScaleRunInput {
  watchlistSize: number;
  seed: number;
  /** Days with publications (weekends and holidays have none). */
  days: number;
  /** Days after them in which the pollers may still find the last changes. */
  drainDays: number;
  requestMs: number;
  /** When the register publishes: about 15:30 local on business days, or at random times. */
  publications: 'clustered' | 'uniform';
  /** Business days of changes applied before the run, so registers carry their rates' dates. */
  warmUpDays?: number;
  /**
   * Days the pollers run before changes are measured, so the figures are of a deployment in its
   * stride (issuers' last polls spread out, refresh times learned) rather than of its first days.
   */
  burnInDays?: number;
}

/** What one poller did over the run. */
export interface ScaleOutcome {
  latenciesMs: number[];
  eventLatenciesMs: number[];
  netted: number;
  undetected: number;
  /** The most requests any day window saw (the budget is perDay - reserve). */
  maxRequestsPerDay: number;
  longestGapMs: number;
  /** Each detection (change start, poll that found it), to explain a tail. */
  detections: ChangeTracker['detections'];
}

/** The three pollers on one register; shortwatch is `refused` when its planner refuses the watchlist. */
export interface ScaleRun {
  config: Config;
  plan: Plan | { refused: string };
  changes: number;
  events: number;
  publications: number;
  /** The measured publications themselves. */
  publicationList: Publication[];
  shortwatch: ScaleOutcome | { refused: string };
  /** shortwatch before issue 16 (bench/sim/legacy-poller.ts), on the same register and publications. */
  before: ScaleOutcome | { refused: string };
  roundRobin: ScaleOutcome;
  oracle: ScaleOutcome;
}

/** A Monday, 00:00 UTC. */
const START = Date.UTC(2026, 0, 5);
const DAY_MS = 86_400_000;

function planOrRefusal(config: Config): Plan | { refused: string } {
  try {
    return planFor(config);
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Simulates `days` days of a register of W issuers with skewed change rates publishing at its
 * publication hour, with shortwatch (the real planner and sweep rules), a round-robin poller and the
 * oracle on the same budget, all starting from a snapshot of every issuer.
 */
export function runScale(input: ScaleRunInput): ScaleRun {
  // The registers' own dates start a year before the warm-up's changes, which then date their rows.
  const scenario = createScenario({
    seed: input.seed,
    issuers: input.watchlistSize,
    start: new Date(START - 420 * DAY_MS).toISOString().slice(0, 10),
  });
  const rng = new Random(input.seed * 104_729 + input.watchlistSize);
  const dataset = new SkewedDataset(scenario, rng);
  dataset.warmUp(START, input.warmUpDays ?? 250);
  const ids = dataset.issuers().map((i) => i.svc_issuer_id);
  const config = benchConfig(ids);
  const plan = planOrRefusal(config);
  const clock = new VirtualClock(START);
  const burnIn = input.burnInDays ?? 30;
  const trackers = {
    shortwatch: new ChangeTracker('shortwatch'),
    before: new ChangeTracker('before'),
    rr: new ChangeTracker('round-robin'),
    oracle: new ChangeTracker('oracle'),
  };
  const deps = (tracker: ChangeTracker) => ({ clock, dataset, tracker, requestMs: input.requestMs });
  const { budget, poll } = config;
  const shortwatch =
    'refused' in plan ? undefined : new ShortwatchPoller(deps(trackers.shortwatch), config, plan);
  let legacyPlan: ReturnType<typeof legacyPlanFor> | { refused: string };
  try {
    legacyPlan = legacyPlanFor(config);
  } catch (error) {
    legacyPlan = { refused: error instanceof Error ? error.message : String(error) };
  }
  const before =
    'refused' in legacyPlan ? undefined : new LegacyPoller(deps(trackers.before), config, legacyPlan);
  const rr = new NaivePoller(deps(trackers.rr), {
    perDay: budget.perDay - budget.reserve,
    dayMs: budget.dayWindow,
    thresholds: poll.thresholds,
  });
  const oracle = new OraclePoller(deps(trackers.oracle), {
    perMinute: budget.perMinute,
    perDay: budget.perDay,
    reserve: budget.reserve,
    minuteMs: budget.minuteWindow,
    dayMs: budget.dayWindow,
    concurrency: poll.concurrency,
    thresholds: poll.thresholds,
  });
  const publications: Publication[] = (
    input.publications === 'clustered' ? clusteredPublications : uniformPublications
  )(rng, START + DAY_MS, burnIn + input.days);
  const measuredFrom = START + (1 + burnIn) * DAY_MS;
  const measuredTo = START + (1 + burnIn + input.days) * DAY_MS;
  for (const tracker of Object.values(trackers)) tracker.measureGapsWithin(measuredFrom, measuredTo);
  let changes = 0;
  for (const publication of publications) {
    clock.at(publication.at, () => {
      const changed = dataset.refresh(clock.now(), publication.weight);
      if (clock.now() >= measuredFrom) {
        changes += changed.length;
        for (const tracker of Object.values(trackers)) tracker.changed(changed, clock.now());
      }
      oracle.changed(changed);
    });
  }
  shortwatch?.baseline();
  before?.baseline();
  rr.baseline();
  oracle.baseline();
  shortwatch?.start();
  before?.start();
  rr.start();
  // The drain lasts at least the hard bound, so every change of the measured days can be found.
  const boundDays = 'refused' in plan ? 0 : Math.ceil(plan.maxStalenessMs / DAY_MS);
  const end = START + (burnIn + input.days + 1 + Math.max(input.drainDays, boundDays + 1)) * DAY_MS;
  clock.runUntil(end);
  const outcome = (tracker: ChangeTracker, perDay: ReadonlyMap<number, number>): ScaleOutcome => ({
    latenciesMs: tracker.latenciesMs,
    eventLatenciesMs: tracker.eventLatenciesMs,
    netted: tracker.netted,
    undetected: tracker.undetected(),
    maxRequestsPerDay: Math.max(0, ...perDay.values()),
    longestGapMs: tracker.longestGapMs(ids, START),
    detections: tracker.detections,
  });
  return {
    config,
    plan,
    changes,
    events: trackers.oracle.eventLatenciesMs.length,
    publications: publications.filter((p) => p.at >= measuredFrom).length,
    publicationList: publications.filter((p) => p.at >= measuredFrom),
    shortwatch:
      shortwatch && !('refused' in plan)
        ? outcome(trackers.shortwatch, shortwatch.budget.perDay)
        : { refused: 'refused' in plan ? plan.refused : 'no plan' },
    before: before ? outcome(trackers.before, before.budget.perDay) : { refused: 'refused at start' },
    roundRobin: outcome(trackers.rr, rr.perDay),
    oracle: outcome(trackers.oracle, oracle.budget.perDay),
  };
}
