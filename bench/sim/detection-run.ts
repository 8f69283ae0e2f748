import type { Plan } from '../../src/budget/index.js';
import { type Config, configSchema } from '../../src/config/schema.js';
import { planFor } from '../../src/jobs/plan-for.js';
import { createScenario } from '../../src/sandbox/index.js';
import { Random } from '../../src/sandbox/prng.js';
import { ChangeTracker } from './change-tracker.js';
import { SimDataset, unversioned } from './dataset.js';
import { VirtualClock } from './event-queue.js';
import { NaivePoller } from './naive-poller.js';
import { type BlindOptions, ShortwatchPoller } from './shortwatch-poller.js';

/** One simulated run. */
export interface DetectionRunInput {
  watchlistSize: number;
  seed: number;
  /** Days with a refresh (day 0 before them is for baselines). */
  days: number;
  /** Days after the last refresh in which the pollers may still find its changes. */
  drainDays: number;
  /** Virtual time of one upstream request. */
  requestMs: number;
  /** Config `poll` keys over the defaults, for what-if runs. */
  poll?: Record<string, unknown>;
  /** Time of day (ms after UTC midnight) of each day's refresh, for tests; seeded random times without. */
  refreshTimesOfDay?: readonly number[];
  /** Serve the list and the answers without versions (`last_updated: null`), and how the sweep meets it. */
  unversioned?: BlindOptions;
}

/** What one poller did in a run. */
export interface PollerOutcome {
  latenciesMs: number[];
  /** Changed issuers whose next poll showed no event (the change netted out). */
  netted: number;
  /** Changes no poll had seen by the end of the run. */
  undetected: number;
  /** Requests in each day window that had a refresh. */
  requestsPerDay: number[];
}

/** Both pollers over the same dataset and refreshes. */
export interface DetectionRun {
  plan: Plan;
  config: Config;
  /** Changed issuers over all refreshes. */
  changes: number;
  /** Virtual time of each refresh. */
  refreshedAt: number[];
  shortwatch: PollerOutcome & {
    sweepsRefused: number;
    /** Polls that ran in a later UTC day than the sweep that enqueued them, in each measured day. */
    spilledPerDay: number[];
    /** Polls with a closed event not enriched because a whole sweep no longer fit in the day. */
    enrichSkipped: number;
    /** The day's tokens left (`day.left`) each time the enrichment guard let a poll try for a token. */
    enrichDayLeft: number[];
    requestsBy: ShortwatchPoller['requestsBy'];
  };
  naive: PollerOutcome;
}

/** Share of the listed positions one refresh changes (the "about 3%"). */
export const CHANGE_RATE = 0.03;

/** A Monday, 00:00 UTC: day windows start on the virtual clock's midnights. */
const START = Date.UTC(2026, 0, 5);

/** The daemon's config for W issuers: every default, so the real caps (100/minute, 1,000/day). */
export function benchConfig(issuerIds: readonly string[], poll: Record<string, unknown> = {}): Config {
  return configSchema.parse({
    upstream: { baseUrl: 'https://sandbox.invalid', apiKey: 'bench' },
    watchlist: issuerIds.map((id) => ({ id })),
    poll,
  });
}

/**
 * Simulates `days` days of one refresh each, at a seeded random time, over the real sandbox scenario,
 * with shortwatch's gate-driven polling and a naive round-robin poller side by side.
 */
export function runDetection(input: DetectionRunInput): DetectionRun {
  const scenario = createScenario({ seed: input.seed, issuers: input.watchlistSize });
  const rng = new Random(input.seed * 7919 + input.watchlistSize);
  const dataset = new SimDataset(scenario, rng, CHANGE_RATE);
  const config = benchConfig(
    dataset.issuers().map((i) => i.svc_issuer_id),
    input.poll,
  );
  const plan = planFor(config);
  const dayMs = config.budget.dayWindow;
  const clock = new VirtualClock(START);
  const trackers = { shortwatch: new ChangeTracker(), naive: new ChangeTracker() };
  // The refreshes still move the dataset; only what the pollers are served loses its version.
  const served = input.unversioned ? unversioned(dataset) : dataset;
  const shortwatch = new ShortwatchPoller(
    { clock, dataset: served, tracker: trackers.shortwatch, requestMs: input.requestMs },
    config,
    plan,
    input.unversioned,
  );
  const naive = new NaivePoller(
    { clock, dataset: served, tracker: trackers.naive, requestMs: input.requestMs },
    { perDay: config.budget.perDay - config.budget.reserve, dayMs, thresholds: config.poll.thresholds },
  );
  let changes = 0;
  const refreshedAt: number[] = [];
  for (let day = 1; day <= input.days; day++) {
    const timeOfDay = input.refreshTimesOfDay?.[day - 1] ?? Math.floor(rng.next() * dayMs);
    clock.at(START + day * dayMs + timeOfDay, () => {
      const changed = dataset.refresh(clock.now());
      changes += changed.length;
      refreshedAt.push(clock.now());
      trackers.shortwatch.changed(changed, clock.now());
      trackers.naive.changed(changed, clock.now());
    });
  }
  shortwatch.start();
  naive.start();
  clock.runUntil(START + (input.days + 1 + input.drainDays) * dayMs);
  const measuredDays = Array.from({ length: input.days }, (_, i) => START + (i + 1) * dayMs);
  const outcome = (tracker: ChangeTracker, perDay: Map<number, number>): PollerOutcome => ({
    latenciesMs: tracker.latenciesMs,
    netted: tracker.netted,
    undetected: tracker.undetected(),
    requestsPerDay: measuredDays.map((day) => perDay.get(day) ?? 0),
  });
  return {
    plan,
    config,
    changes,
    refreshedAt,
    shortwatch: {
      ...outcome(trackers.shortwatch, shortwatch.budget.perDay),
      sweepsRefused: shortwatch.sweepsRefused,
      spilledPerDay: measuredDays.map((day) => shortwatch.spilled.get(day) ?? 0),
      enrichSkipped: shortwatch.enrichSkipped,
      enrichDayLeft: shortwatch.enrichDayLeft,
      requestsBy: shortwatch.requestsBy,
    },
    naive: outcome(trackers.naive, naive.perDay),
  };
}
