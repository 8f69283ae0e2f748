import type { Logger } from '../telemetry/logger.js';

/** One periodic duty of the daemon: what it is called, how often it runs, what it reads and writes. */
export interface Duty {
  readonly name: string;
  /** A multiple of the scheduler's tick: the duty runs every `periodMs / tickMs` ticks. */
  readonly periodMs: number;
  /** What the duty reads (documentation, listed by docs/architecture.md). */
  readonly reads: string;
  /** What the duty writes. */
  readonly writes: string;
  /** Logged at warn when the duty throws; absent when a failure is nothing to tell (the duty says why). */
  readonly failure?: string;
  run(): Promise<void>;
}

/**
 * Runs the daemon's duties, in the order they were registered, each on its own period counted in ticks
 * (a timer's jitter never skips a run). A tick that finds the last one still running is skipped, and
 * `stop` waits for the one running, so that nothing a duty writes lands after the process left.
 */
export class DutyScheduler {
  readonly #logger: Logger;
  readonly #tickMs: number;
  readonly #duties: Duty[] = [];
  #ticks = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(logger: Logger, tickMs: number) {
    this.#logger = logger;
    this.#tickMs = tickMs;
  }

  /** Adds a duty; its period must be a whole number of ticks. */
  register(duty: Duty): this {
    if (duty.periodMs <= 0 || duty.periodMs % this.#tickMs !== 0) {
      throw new RangeError(
        `duty ${duty.name}: period ${duty.periodMs} ms is not a multiple of ${this.#tickMs} ms`,
      );
    }
    this.#duties.push(duty);
    return this;
  }

  /** The duties registered, in the order they run. */
  get duties(): readonly Duty[] {
    return this.#duties;
  }

  /** Whether this process started beating (a process that never did has nothing to leave at stop). */
  get started(): boolean {
    return this.#timer !== undefined;
  }

  /** Runs every duty once now, then each on its period. */
  async start(): Promise<void> {
    await this.#tick();
    this.#timer = setInterval(() => {
      this.#running ??= this.#tick().finally(() => {
        this.#running = undefined;
      });
    }, this.#tickMs).unref();
  }

  /** Stops the ticks and waits for the one running. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }

  async #tick(): Promise<void> {
    const tick = this.#ticks++;
    for (const duty of dutiesDue(this.#duties, tick, this.#tickMs)) {
      await duty.run().catch((error: unknown) => {
        if (duty.failure !== undefined) this.#logger.warn({ err: error, duty: duty.name }, duty.failure);
      });
    }
  }
}

/** The duties due at tick number `tick` (0 is the first): every duty at 0, then each every period. */
export function dutiesDue<D extends Pick<Duty, 'periodMs'>>(
  duties: readonly D[],
  tick: number,
  tickMs: number,
): D[] {
  return duties.filter((duty) => tick % (duty.periodMs / tickMs) === 0);
}
