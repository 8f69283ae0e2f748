import { windowStart } from '../../src/budget/windows.js';
import { diffPositions, type Snapshot } from '../../src/positions/index.js';
import { baselineAll } from './baseline.js';
import type { PollerDeps } from './shortwatch-poller.js';

/**
 * The baseline: no gate, one issuer after another round-robin, spending `perDay` requests evenly over
 * each day (one every dayMs / perDay), which never exceeds a minute cap of one request a minute or more.
 */
export class NaivePoller {
  /** Requests per day window start. */
  readonly perDay = new Map<number, number>();
  readonly #deps: PollerDeps;
  readonly #snapshots = new Map<string, Snapshot>();
  readonly #everyMs: number;
  readonly #dayMs: number;
  readonly #thresholds: number[];
  #next = 0;

  constructor(deps: PollerDeps, options: { perDay: number; dayMs: number; thresholds: number[] }) {
    this.#deps = deps;
    this.#everyMs = Math.ceil(options.dayMs / options.perDay);
    this.#dayMs = options.dayMs;
    this.#thresholds = options.thresholds;
  }

  /** Every issuer's snapshot at the start, outside the budget. */
  baseline(): void {
    const { clock, dataset, tracker } = this.#deps;
    for (const [id, snapshot] of baselineAll(dataset, clock.now(), this.#thresholds, tracker)) {
      this.#snapshots.set(id, snapshot);
    }
  }

  /** Starts polling now. */
  start(): void {
    const { clock } = this.#deps;
    const tick = () => {
      this.#poll();
      clock.at(clock.now() + this.#everyMs, tick);
    };
    tick();
  }

  #poll(): void {
    const { clock, dataset, tracker } = this.#deps;
    const issuers = dataset.issuers();
    const issuer = issuers[this.#next % issuers.length];
    this.#next++;
    if (!issuer) return;
    const now = clock.now();
    const day = windowStart(now, this.#dayMs);
    this.perDay.set(day, (this.perDay.get(day) ?? 0) + 1);
    const answer = dataset.read(issuer);
    const id = issuer.svc_issuer_id;
    const { events, next } = diffPositions({
      previous: this.#snapshots.get(id) ?? null,
      issuer: { id, name: issuer.name },
      rows: answer.rows,
      lastUpdated: answer.lastUpdated,
      now: new Date(now),
      thresholds: this.#thresholds,
      onFirstSeen: 'baseline',
    });
    tracker.polled(id, now + this.#deps.requestMs, events.length);
    this.#snapshots.set(id, next);
  }
}
