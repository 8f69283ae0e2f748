import type { Plan } from '../../src/budget/index.js';
import { nextWindowStart, windowStart } from '../../src/budget/windows.js';
import type { Config } from '../../src/config/schema.js';
import { historyFits, historySummary } from '../../src/jobs/issuer-history.js';
import { pollJobId } from '../../src/jobs/queues.js';
import { type PollJobData, pollReason } from '../../src/jobs/sweep.js';
import { diffPositions, type Snapshot } from '../../src/positions/index.js';
import {
  type BlindPace,
  blindListDue,
  blindListIntervalMs,
  selectBlindPolls,
} from '../../src/schedule/blind-polls.js';
import {
  freeTokens,
  gateDecision,
  type IssuerScheduleState,
  learnProfile,
  queuePriority,
  type RefreshProfile,
  refreshesLater,
  refreshInstant,
  refreshTimesKnown,
  seenToday,
  selectPolls,
  snapshotRate,
  uniformProfile,
  untilRefreshMs,
} from '../../src/schedule/index.js';
import type { Issuer } from '../../src/upstream/schemas.js';
import { baselineAll } from './baseline.js';
import { BudgetModel } from './budget-model.js';
import type { ChangeTracker } from './change-tracker.js';
import type { VirtualClock } from './event-queue.js';
import type { PollableDataset } from './skewed-dataset.js';

/** The shortest pause of the poll queue after a refused token (runPoll's `Math.max(250, …)`). */
const MIN_PAUSE_MS = 250;

/** What a simulated poller shares with the run. */
export interface PollerDeps {
  clock: VirtualClock;
  dataset: PollableDataset;
  tracker: ChangeTracker;
  /** Virtual time one upstream request takes, answer included. */
  requestMs: number;
}

interface PollJob {
  id: string;
  issuer: Issuer;
  reason: PollJobData['reason'];
  /** Start of the UTC day window of the sweep that enqueued the job. */
  sweptDay: number;
  /** BullMQ priority: 1 first (0 for a job without one: BullMQ's wait list comes before the prioritized). */
  priority: number;
  /** A blind poll's turn: it is current, and spends nothing, once a poll committed at or after it. */
  turnMs?: number;
}

/** How the simulated sweep treats a list without a version. */
export interface BlindOptions {
  /**
   * Read the list only at its turn in the blind rotation (blindListDue), as proposed for sweep.ts; the
   * sweep as it is reads it at every gate check.
   */
  listInRotation?: boolean;
}

/**
 * shortwatch's polling under a virtual clock: the real plan (planFor), the real per-issuer gate
 * decision (pollReason), the sweep's deduplication ids (pollJobId; BullMQ `deduplication: {id}` holds
 * only while the job is waiting, active or delayed, not once it finished), the real diff, the budget's
 * rules, the poll queue paused on a refused token (as runPoll does) and `enrichClosed` spending a token
 * only while a whole sweep of the watchlist still fits in the day (poll.ts's rule), and the change
 * rates read from the snapshots as the sweep reads them: the holders' dates, the polls that found events
 * (the diff's watch record) and the `status=all` summary a poll stored (issuer-history.ts).
 */
export class ShortwatchPoller {
  readonly budget: BudgetModel;
  sweepsRefused = 0;
  /** Polls with a closed event that went without enrichment because a whole sweep no longer fit today. */
  enrichSkipped = 0;
  /** `day.left` when the history guard let a `status=all` fetch (closes, or a first snapshot) try for a token. */
  readonly enrichDayLeft: number[] = [];
  /** Polls that ran in a later UTC day window than the sweep that enqueued them, by that later day. */
  readonly spilled = new Map<number, number>();
  /**
   * Granted requests by purpose: the gate check, each poll reason, closed-event enrichment, and the
   * history fetched at a first snapshot without closes.
   */
  readonly requestsBy: Record<'gate' | PollJobData['reason'] | 'enrich' | 'history', number> = {
    gate: 0,
    new: 0,
    changed: 0,
    stale: 0,
    interval: 0,
    blind: 0,
    enrich: 0,
    history: 0,
  };
  readonly #deps: PollerDeps;
  readonly #config: Config;
  readonly #plan: Plan;
  readonly #snapshots = new Map<string, Snapshot>();
  /** Each snapshot's polledAt in epoch ms, parsed once. */
  readonly #polledAtMs = new Map<string, number>();
  /** Deduplication ids of jobs not finished yet: BullMQ deletes the key when the job completes. */
  readonly #pending = new Set<string>();
  readonly #queue: PollJob[] = [];
  /** What the scheduler knows of each issuer, updated as polls commit. */
  readonly #states: IssuerScheduleState[] = [];
  readonly #stateOf = new Map<string, IssuerScheduleState>();
  readonly #byId = new Map<string, Issuer>();
  /** The `last_updated` values the gate saw, epoch ms (the RefreshHistory). */
  /** The refreshes the gate saw, as RefreshHistory keeps them: when it saw each, and when each happened. */
  readonly #refreshes: number[] = [];
  readonly #seenAt: number[] = [];
  #profile: RefreshProfile = uniformProfile();
  #profileAt = Number.NEGATIVE_INFINITY;
  #ratesAt = Number.NEGATIVE_INFINITY;
  #lastCheckMs: number | null = null;
  #savedVersion: string | null = null;
  #active = 0;
  /** Blind polls queued with a delay that has not run out (BullMQ's `delayed` set). */
  #delayed = 0;
  readonly #listInRotation: boolean;
  #pausedUntil = 0;
  #wakeAt = Number.POSITIVE_INFINITY;

  constructor(deps: PollerDeps, config: Config, plan: Plan, blind: BlindOptions = {}) {
    this.#deps = deps;
    this.#listInRotation = blind.listInRotation ?? false;
    this.#config = config;
    this.#plan = plan;
    for (const issuer of deps.dataset.issuers()) {
      const state = { id: issuer.svc_issuer_id, seenVersionMs: null, polledAtMs: null, rate: 0 };
      this.#states.push(state);
      this.#stateOf.set(state.id, state);
      this.#byId.set(state.id, issuer);
    }
    this.budget = new BudgetModel({
      perMinute: config.budget.perMinute,
      perDay: config.budget.perDay,
      reserve: config.budget.reserve,
      minuteMs: config.budget.minuteWindow,
      dayMs: config.budget.dayWindow,
    });
  }

  /**
   * Every issuer's snapshot at the start, outside the budget, without a history: a real baseline of
   * these watchlists (hundreds of issuers or more on 1,000 a day) seldom has a whole sweep spare for it.
   */
  baseline(): void {
    const { clock, dataset, tracker } = this.#deps;
    for (const [id, snapshot] of baselineAll(dataset, clock.now(), this.#config.poll.thresholds, tracker)) {
      this.#commit(id, snapshot, clock.now());
    }
  }

  /** Starts the sweep scheduler: a first sweep now, then every interval on its multiples (BullMQ `every`). */
  start(): void {
    const every = this.#plan.sweepIntervalMs;
    const tick = () => {
      this.#sweep();
      const now = this.#deps.clock.now();
      this.#deps.clock.at(Math.floor(now / every) * every + every, tick);
    };
    tick();
  }

  #sweep(): void {
    const { clock } = this.#deps;
    const now = clock.now();
    const gate = this.#plan.gate ? this.#gateTick(now) : { check: true, checksLeft: 0 };
    if (!gate.check) {
      this.#schedule(now, this.#savedVersion, gate.checksLeft, false);
      return;
    }
    if (!this.budget.take(now).granted) {
      this.sweepsRefused++;
      return;
    }
    this.requestsBy.gate++;
    const previousCheck = this.#lastCheckMs;
    this.#lastCheckMs = now;
    clock.at(now + this.#deps.requestMs, () => {
      const lastUpdated = this.#deps.dataset.lastUpdated();
      if (lastUpdated !== null && lastUpdated !== this.#savedVersion) {
        // As RefreshHistory keeps it (refreshInstant).
        const first = this.#refreshes.length === 0;
        const at = refreshInstant(lastUpdated, clock.now(), first ? null : previousCheck, first);
        this.#refreshes.push(at);
        this.#seenAt.push(first ? at : clock.now());
        this.#profileAt = Number.NEGATIVE_INFINITY;
      }
      this.#savedVersion = lastUpdated;
      this.#schedule(clock.now(), lastUpdated, gate.checksLeft, true);
    });
  }

  /** The sweep's gate decision (sweep.ts gateThisTick), with the profile relearned at most hourly. */
  #gateTick(now: number): { check: boolean; checksLeft: number } {
    if (this.#listInRotation && this.#savedVersion === null && this.#lastCheckMs !== null) {
      const intervalMs = blindListIntervalMs(this.#blindPace(now, 0), this.#states.length);
      const tickMs = this.#plan.sweepIntervalMs;
      return {
        check: blindListDue({ nowMs: now, lastCheckMs: this.#lastCheckMs, tickMs, intervalMs }),
        checksLeft: 0,
      };
    }
    const dayMs = this.#config.budget.dayWindow;
    const tickMs = this.#plan.sweepIntervalMs;
    if (this.#plan.gateChecksPerDay >= Math.ceil(dayMs / tickMs)) {
      return { check: true, checksLeft: Math.floor((dayMs - (now % dayMs)) / tickMs) };
    }
    return gateDecision({
      nowMs: now,
      dayMs,
      tickMs,
      profile: this.#profileNow(now),
      checksPerDay: this.#plan.gateChecksPerDay,
      lastCheckMs: this.#lastCheckMs,
    });
  }

  #profileNow(now: number): RefreshProfile {
    if (now - this.#profileAt >= 3_600_000) {
      this.#profile = learnProfile(this.#refreshes.slice(-200), now, this.#config.budget.dayWindow);
      this.#profileAt = now;
    }
    return this.#profile;
  }

  /** What sweep.ts queues after its gate decision: selectPolls for a gated plan, pollReason without. */
  #schedule(now: number, lastUpdated: string | null, checksLeft: number, checked: boolean): void {
    const sweptDay = windowStart(now, this.#config.budget.dayWindow);
    const version =
      lastUpdated === null
        ? `t${Math.floor(now / this.#plan.sweepIntervalMs)}`
        : `v${Date.parse(lastUpdated)}`;
    if (!this.#plan.gate) {
      if (checked) this.#scheduleUngated(now, lastUpdated, version, sweptDay);
      return;
    }
    if (lastUpdated === null) {
      this.#scheduleBlind(now, checksLeft, sweptDay);
      return;
    }
    this.#refreshRates(now);
    const { budget } = this.#config;
    const profile = this.#profileNow(now);
    const seen = seenToday(this.#seenAt, now, budget.dayWindow);
    const later = refreshesLater(profile, now, budget.dayWindow, seen);
    const chosen = selectPolls({
      issuers: this.#states,
      versionMs: lastUpdated === null ? null : Date.parse(lastUpdated),
      nowMs: now,
      boundMs: this.#plan.maxStalenessMs,
      budget: {
        tokensLeft: this.budget.dayLeft(now) - budget.reserve,
        checksLeft,
        queued: this.#queue.length,
        refreshesLater: later,
      },
      untilRefreshMs: untilRefreshMs(profile, now, budget.dayWindow, later),
      seenToday: seen,
      refreshTimesKnown: refreshTimesKnown(profile),
      untilDayEndMs: nextWindowStart(now, budget.dayWindow) - now,
      fullSweepMs: this.#plan.minSweepMs,
      tickMs: this.#plan.sweepIntervalMs,
      fullSweeps: this.#plan.refreshesPerDay >= 1,
    });
    for (const candidate of chosen) {
      const issuer = this.#byId.get(candidate.id);
      if (!issuer) continue;
      const reason = candidate.reason;
      const id = pollJobId(
        issuer.svc_issuer_id,
        reason === 'changed' || reason === 'new' ? version : `${reason}-${version}`,
      );
      if (this.#pending.has(id)) continue;
      this.#pending.add(id);
      this.#enqueue({ id, issuer, reason, sweptDay, priority: queuePriority(candidate) });
    }
    this.#pump();
  }

  /** What sweep.ts `blindPolls` queues while the list carries no version: each poll delayed to its turn. */
  #scheduleBlind(now: number, checksLeft: number, sweptDay: number): void {
    const polls = selectBlindPolls({
      issuers: this.#states.map((s) => ({ id: s.id, polledAtMs: s.polledAtMs })),
      nowMs: now,
      ...this.#blindPace(now, checksLeft),
      tickMs: this.#plan.sweepIntervalMs,
      listInRotation: this.#listInRotation,
    });
    for (const poll of polls) {
      const issuer = this.#byId.get(poll.id);
      const id = pollJobId(poll.id, `blind-${poll.atMs}`);
      if (!issuer || this.#pending.has(id)) continue;
      this.#pending.add(id);
      this.#delayed++;
      const job: PollJob = { id, issuer, reason: 'blind', sweptDay, priority: 0, turnMs: poll.atMs };
      this.#deps.clock.at(poll.atMs, () => {
        this.#delayed--;
        this.#enqueue(job);
        this.#pump();
      });
    }
  }

  /** The budget's side of sweep.ts `blindPolls`: tokens after the reserve, the checks due and the queue. */
  #blindPace(now: number, checksLeft: number): BlindPace {
    const { budget } = this.#config;
    return {
      spendable: freeTokens({
        tokensLeft: this.budget.dayLeft(now) - budget.reserve,
        checksLeft,
        queued: this.#queue.length + this.#delayed,
        refreshesLater: 0,
      }),
      untilDayEndMs: nextWindowStart(now, budget.dayWindow) - now,
      perMinute: Math.max(1, budget.perMinute - this.#plan.gateChecksPerMinute),
      minuteMs: budget.minuteWindow,
    };
  }

  #scheduleUngated(now: number, lastUpdated: string | null, version: string, sweptDay: number): void {
    const policy = {
      gate: false,
      maxStalenessMs: this.#plan.maxStalenessMs,
      intervalMs: this.#plan.sweepIntervalMs,
    };
    for (const issuer of this.#deps.dataset.issuers()) {
      const reason = pollReason(this.#snapshots.get(issuer.svc_issuer_id), lastUpdated, now, policy);
      if (!reason) continue;
      const id = pollJobId(issuer.svc_issuer_id, `${reason}-${version}`);
      if (this.#pending.has(id)) continue;
      this.#pending.add(id);
      this.#enqueue({ id, issuer, reason, sweptDay, priority: 1 });
    }
    this.#pump();
  }

  /** Rates as the sweep estimates them from each snapshot, recomputed daily and after each poll. */
  #refreshRates(now: number): void {
    if (now - this.#ratesAt < this.#config.budget.dayWindow) return;
    this.#ratesAt = now;
    for (const state of this.#states) {
      const snapshot = this.#snapshots.get(state.id);
      if (snapshot) state.rate = snapshotRate(snapshot, now);
    }
  }

  /** BullMQ's prioritized set: lower priority numbers first, first in first out within one. */
  #enqueue(job: PollJob): void {
    const queue = this.#queue;
    let low = 0;
    let high = queue.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((queue[mid]?.priority ?? 0) <= job.priority) low = mid + 1;
      else high = mid;
    }
    queue.splice(low, 0, job);
  }

  #pump(): void {
    const { clock, requestMs } = this.#deps;
    const now = clock.now();
    if (now < this.#pausedUntil) {
      this.#wake(this.#pausedUntil);
      return;
    }
    while (
      this.#active < this.#config.poll.concurrency &&
      this.#queue.length > 0 &&
      now >= this.#pausedUntil
    ) {
      const job = this.#queue.shift();
      if (!job) break;
      if (job.turnMs !== undefined && (this.#polledAtMs.get(job.issuer.svc_issuer_id) ?? 0) >= job.turnMs) {
        // poll.ts alreadyCurrent: a blind poll whose issuer was polled since its turn spends no token.
        this.#pending.delete(job.id);
        continue;
      }
      const decision = this.budget.take(now);
      if (!decision.granted) {
        // The job goes back to wait and the whole queue pauses until a token may be free.
        this.#queue.unshift(job);
        this.#pausedUntil = now + Math.max(MIN_PAUSE_MS, decision.retryAt - now);
        this.#wake(this.#pausedUntil);
        return;
      }
      this.#active++;
      this.requestsBy[job.reason]++;
      const day = windowStart(now, this.#config.budget.dayWindow);
      if (day > job.sweptDay) this.spilled.set(day, (this.spilled.get(day) ?? 0) + 1);
      clock.at(now + requestMs, () => this.#poll(job));
    }
  }

  /** One pending wake-up at a time is enough: a pump that finds the queue still paused books the next. */
  #wake(at: number): void {
    if (this.#wakeAt > this.#deps.clock.now() && this.#wakeAt <= at) return;
    this.#wakeAt = at;
    this.#deps.clock.at(at, () => {
      this.#wakeAt = Number.POSITIVE_INFINITY;
      this.#pump();
    });
  }

  /** The snapshot commit, and what the next sweep reads of it. */
  #commit(id: string, snapshot: Snapshot, now: number): void {
    this.#snapshots.set(id, snapshot);
    this.#polledAtMs.set(id, Date.parse(snapshot.polledAt));
    const state = this.#stateOf.get(id);
    if (!state) return;
    state.polledAtMs = Date.parse(snapshot.polledAt);
    state.seenVersionMs = snapshot.lastUpdated === null ? null : Date.parse(snapshot.lastUpdated);
    state.rate = snapshotRate(snapshot, now);
  }

  /** The history guard (issuer-history.ts `historyFits`), read after the poll's own token. */
  #sweepStillFits(now: number): boolean {
    const { reserve, dayWindow } = this.#config.budget;
    return historyFits({
      dayLeft: this.budget.dayLeft(now),
      reserve,
      watched: this.#states.length,
      gateChecksPerDay: this.#plan.gate ? this.#plan.gateChecksPerDay : 0,
      untilDayEndMs: nextWindowStart(now, dayWindow) - now,
      dayMs: dayWindow,
    });
  }

  #poll(job: PollJob): void {
    const { clock, dataset, tracker, requestMs } = this.#deps;
    const now = clock.now();
    const answer = dataset.read(job.issuer);
    const id = job.issuer.svc_issuer_id;
    const previous = this.#snapshots.get(id) ?? null;
    const { events, next } = diffPositions({
      previous,
      issuer: { id, name: job.issuer.name },
      rows: answer.rows,
      lastUpdated: answer.lastUpdated,
      now: new Date(now),
      thresholds: this.#config.poll.thresholds,
      onFirstSeen: this.#config.poll.onFirstSeen,
    });
    // historyForPoll's rule: status=all for closes to complete, or for a first snapshot's history.
    const closed = this.#config.poll.enrichClosed && events.some((e) => e.kind === 'closed');
    const fits = (closed || previous === null) && this.#sweepStillFits(now);
    if (closed && !fits) this.enrichSkipped++;
    if (fits) this.enrichDayLeft.push(this.budget.dayLeft(now));
    const fetched = fits && this.budget.take(now).granted;
    if (fetched) this.requestsBy[closed ? 'enrich' : 'history']++;
    const history = fetched ? { data: dataset.all(id) } : null;
    // Events are dispatched after the history, then the snapshot is committed with its summary.
    clock.at(now + (fetched ? requestMs : 0), () => {
      tracker.polled(id, clock.now(), events.length);
      const summary = historySummary(next, history, new Date(clock.now()));
      this.#commit(id, summary ? { ...next, history: summary } : next, clock.now());
      this.#pending.delete(job.id);
      this.#active--;
      this.#pump();
    });
  }
}
