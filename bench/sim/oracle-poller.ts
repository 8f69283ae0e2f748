import { windowStart } from '../../src/budget/windows.js';
import { diffPositions, type Snapshot } from '../../src/positions/index.js';
import type { Issuer } from '../../src/upstream/schemas.js';
import { BudgetModel, type BudgetModelOptions } from './budget-model.js';
import type { PollerDeps } from './shortwatch-poller.js';

/**
 * The floor: a poller told which issuers each refresh changed, which polls exactly those, at once,
 * within the same caps (per minute, per day less the reserve) and with the same concurrency. No
 * policy that has to guess can find changes sooner on the same budget.
 */
export class OraclePoller {
  readonly budget: BudgetModel;
  readonly #deps: PollerDeps;
  readonly #snapshots = new Map<string, Snapshot>();
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  readonly #concurrency: number;
  readonly #dayMs: number;
  readonly #thresholds: number[];
  readonly #byId: ReadonlyMap<string, Issuer>;
  #active = 0;
  #wakeAt = Number.POSITIVE_INFINITY;

  constructor(deps: PollerDeps, options: BudgetModelOptions & { concurrency: number; thresholds: number[] }) {
    this.#deps = deps;
    this.budget = new BudgetModel(options);
    this.#concurrency = options.concurrency;
    this.#dayMs = options.dayMs;
    this.#thresholds = options.thresholds;
    this.#byId = new Map(deps.dataset.issuers().map((issuer) => [issuer.svc_issuer_id, issuer]));
  }

  /** A snapshot of every issuer at the start, outside the budget (as every poller gets). */
  baseline(): void {
    for (const issuer of this.#deps.dataset.issuers()) this.#observe(issuer.svc_issuer_id);
  }

  /** A refresh changed these issuers: poll them next. */
  changed(ids: readonly string[]): void {
    for (const id of ids) {
      if (this.#queued.has(id)) continue;
      this.#queued.add(id);
      this.#queue.push(id);
    }
    this.#pump();
  }

  #pump(): void {
    const { clock, requestMs } = this.#deps;
    const now = clock.now();
    while (this.#active < this.#concurrency && this.#queue.length > 0) {
      const decision = this.budget.take(now);
      if (!decision.granted) {
        this.#wake(decision.retryAt);
        return;
      }
      const id = this.#queue.shift();
      if (id === undefined) break;
      this.#queued.delete(id);
      this.#active++;
      clock.at(now + requestMs, () => {
        this.#observe(id);
        this.#active--;
        this.#pump();
      });
    }
  }

  #wake(at: number): void {
    if (this.#wakeAt > this.#deps.clock.now() && this.#wakeAt <= at) return;
    this.#wakeAt = at;
    this.#deps.clock.at(at, () => {
      this.#wakeAt = Number.POSITIVE_INFINITY;
      this.#pump();
    });
  }

  #observe(id: string): void {
    const { clock, dataset, tracker } = this.#deps;
    const issuer = this.#byId.get(id);
    if (!issuer) return;
    const answer = dataset.read(issuer);
    const { events, next } = diffPositions({
      previous: this.#snapshots.get(id) ?? null,
      issuer: { id, name: issuer.name },
      rows: answer.rows,
      lastUpdated: answer.lastUpdated,
      now: new Date(clock.now()),
      thresholds: this.#thresholds,
      onFirstSeen: 'baseline',
    });
    if (this.#snapshots.has(id)) tracker.polled(id, clock.now(), events.length);
    this.#snapshots.set(id, next);
  }

  /** Requests in the day window holding `at`. */
  requestsOn(at: number): number {
    return this.budget.perDay.get(windowStart(at, this.#dayMs)) ?? 0;
  }
}
