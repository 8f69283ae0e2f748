import type { Rollback, StateMark } from '../state/state-mark.js';

/** How often each process reads the high-water mark: a failover is noticed within about this. */
export const MARK_CHECK_MS = 1_000;

/**
 * Reads the deployment's high-water mark every second on the process's command connection, so that the
 * mark it keeps follows every process's commits closely and a failover that lost writes is told at the
 * first reading after the reconnect. Redis trouble is `RedisHealth`'s to log: a failed reading is skipped.
 */
export class StateMarkWatch {
  readonly #mark: Pick<StateMark, 'check'>;
  readonly #report: (rollback: Rollback) => Promise<void>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  /** A rollback found whose report failed (Redis still settling after the failover): told at the next tick. */
  #unreported: Rollback | undefined;

  constructor(mark: Pick<StateMark, 'check'>, report: (rollback: Rollback) => Promise<void>) {
    this.#mark = mark;
    this.#report = report;
  }

  /** Starts reading; a reading still under way skips the next tick. */
  start(): void {
    this.#timer ??= setInterval(() => {
      this.#running ??= this.#tick().finally(() => {
        this.#running = undefined;
      });
    }, MARK_CHECK_MS);
  }

  /** Stops, waiting for the reading under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  async #tick(): Promise<void> {
    try {
      // The mark moves on at the reading that finds the rollback: a report that fails is kept, not lost.
      this.#unreported ??= await this.#mark.check();
      if (this.#unreported) await this.#report(this.#unreported);
      this.#unreported = undefined;
    } catch {
      // Redis does not answer (logged once per outage by RedisHealth): the next tick reads or tells again.
    }
  }
}
