import { windowStart } from '../../src/budget/windows.js';
import type { Config } from '../../src/config/schema.js';
import { pollJobId } from '../../src/jobs/queues.js';
import { type PollJobData, pollReason } from '../../src/jobs/sweep.js';
import { diffPositions, type Snapshot } from '../../src/positions/index.js';
import type { Issuer } from '../../src/upstream/schemas.js';
import { baselineAll } from './baseline.js';
import { BudgetModel } from './budget-model.js';
import type { Plan } from './legacy-planner.js';
import type { PollerDeps } from './shortwatch-poller.js';

/** The shortest pause of the poll queue after a refused token (runPoll's `Math.max(250, …)`). */
const MIN_PAUSE_MS = 250;

interface PollJob {
  id: string;
  issuer: Issuer;
  reason: PollJobData['reason'];
  /** Start of the UTC day window of the sweep that enqueued the job. */
  sweptDay: number;
}

/**
 * shortwatch's polling BEFORE issue 16 (git HEAD of bench/sim/shortwatch-poller.ts, frozen: every tick a
 * gate check, every issuer polled after each refresh in order, the day's tokens spent first come first
 * served), for the benchmark's before/after columns. It runs the current pollReason, which issue 16 left
 * unchanged. In the old sweep: the real plan (planFor), the real per-issuer gate
 * decision (pollReason), the sweep's deduplication ids (pollJobId; BullMQ `deduplication: {id}` holds
 * only while the job is waiting, active or delayed, not once it finished), the real diff, the budget's
 * rules, the poll queue paused on a refused token (as runPoll does) and `enrichClosed` spending a token
 * only while a whole sweep of the watchlist still fits in the day (poll.ts's rule).
 */
export class LegacyPoller {
  readonly budget: BudgetModel;
  sweepsRefused = 0;
  /** Polls with a closed event that went without enrichment because a whole sweep no longer fit today. */
  enrichSkipped = 0;
  /** `day.left` when enrichClosed's guard let an enrichment try for a token. */
  readonly enrichDayLeft: number[] = [];
  /** Polls that ran in a later UTC day window than the sweep that enqueued them, by that later day. */
  readonly spilled = new Map<number, number>();
  /** Granted requests by purpose: the gate check, each poll reason, and closed-event enrichment. */
  readonly requestsBy: Record<'gate' | PollJobData['reason'] | 'enrich', number> = {
    gate: 0,
    new: 0,
    changed: 0,
    stale: 0,
    interval: 0,
    blind: 0,
    enrich: 0,
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
  #active = 0;
  #pausedUntil = 0;
  #wakeAt = Number.POSITIVE_INFINITY;

  constructor(deps: PollerDeps, config: Config, plan: Plan) {
    this.#deps = deps;
    this.#config = config;
    this.#plan = plan;
    this.budget = new BudgetModel({
      perMinute: config.budget.perMinute,
      perDay: config.budget.perDay,
      reserve: config.budget.reserve,
      minuteMs: config.budget.minuteWindow,
      dayMs: config.budget.dayWindow,
    });
  }

  /** Every issuer's snapshot at the start, outside the budget. */
  baseline(): void {
    const { clock, dataset, tracker } = this.#deps;
    for (const [id, snapshot] of baselineAll(dataset, clock.now(), this.#config.poll.thresholds, tracker)) {
      this.#snapshots.set(id, snapshot);
      this.#polledAtMs.set(id, Date.parse(snapshot.polledAt));
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
    const { clock, dataset, requestMs } = this.#deps;
    if (!this.budget.take(clock.now()).granted) {
      this.sweepsRefused++;
      return;
    }
    this.requestsBy.gate++;
    clock.at(clock.now() + requestMs, () => {
      const now = clock.now();
      const sweptDay = windowStart(now, this.#config.budget.dayWindow);
      const lastUpdated = dataset.lastUpdated();
      const version =
        lastUpdated === null
          ? `t${Math.floor(now / this.#plan.sweepIntervalMs)}`
          : `v${Date.parse(lastUpdated)}`;
      const policy = {
        gate: this.#plan.gate,
        maxStalenessMs: this.#plan.maxStalenessMs,
        intervalMs: this.#plan.sweepIntervalMs,
      };
      for (const issuer of dataset.issuers()) {
        if (this.#freshAtVersion(issuer.svc_issuer_id, lastUpdated, now)) continue;
        const reason = pollReason(this.#snapshots.get(issuer.svc_issuer_id), lastUpdated, now, policy);
        if (!reason) continue;
        const id = pollJobId(
          issuer.svc_issuer_id,
          reason === 'changed' || reason === 'new' ? version : `${reason}-${version}`,
        );
        if (this.#pending.has(id)) continue;
        this.#pending.add(id);
        this.#queue.push({ id, issuer, reason, sweptDay });
      }
      this.#pump();
    });
  }

  /**
   * A shortcut that gives pollReason's answer (nothing due) without its two Date.parse calls, for the
   * common case only: the gate is on, the snapshot shows this very dataset version and is younger than
   * maxStaleness. Every other issuer goes through the real pollReason. It makes long runs affordable.
   */
  #freshAtVersion(issuerId: string, lastUpdated: string | null, now: number): boolean {
    const snapshot = this.#snapshots.get(issuerId);
    const polledAt = this.#polledAtMs.get(issuerId);
    return (
      this.#plan.gate &&
      lastUpdated !== null &&
      snapshot?.lastUpdated === lastUpdated &&
      polledAt !== undefined &&
      now - polledAt < this.#plan.maxStalenessMs
    );
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

  /** enrichClosed's guard: `day.left - reserve > watchlist.length`, read after the poll's own token. */
  #sweepStillFits(now: number): boolean {
    const { reserve } = this.#config.budget;
    return this.budget.dayLeft(now) - reserve > this.#config.watchlist.length;
  }

  #poll(job: PollJob): void {
    const { clock, dataset, tracker, requestMs } = this.#deps;
    const now = clock.now();
    const answer = dataset.read(job.issuer);
    const id = job.issuer.svc_issuer_id;
    const { events, next } = diffPositions({
      previous: this.#snapshots.get(id) ?? null,
      issuer: { id, name: job.issuer.name },
      rows: answer.rows,
      lastUpdated: answer.lastUpdated,
      now: new Date(now),
      thresholds: this.#config.poll.thresholds,
      onFirstSeen: this.#config.poll.onFirstSeen,
    });
    const closed = this.#config.poll.enrichClosed && events.some((e) => e.kind === 'closed');
    const fits = closed && this.#sweepStillFits(now);
    if (closed && !fits) this.enrichSkipped++;
    if (fits) this.enrichDayLeft.push(this.budget.dayLeft(now));
    const enrich = fits && this.budget.take(now).granted;
    if (enrich) this.requestsBy.enrich++;
    // Events are dispatched after the enrichment, then the snapshot is committed.
    clock.at(now + (enrich ? requestMs : 0), () => {
      tracker.polled(id, clock.now(), events.length);
      this.#snapshots.set(id, next);
      this.#polledAtMs.set(id, Date.parse(next.polledAt));
      this.#pending.delete(job.id);
      this.#active--;
      this.#pump();
    });
  }
}
