class DutyScheduler {
  #logger;
  #tickMs;
  #duties = [];
  #ticks = 0;
  #timer;
  #running;
  constructor(logger, tickMs) {
    this.#logger = logger;
    this.#tickMs = tickMs;
  }
  /** Adds a duty; its period must be a whole number of ticks. */
  register(duty) {
    if (duty.periodMs <= 0 || duty.periodMs % this.#tickMs !== 0) {
      throw new RangeError(
        `duty ${duty.name}: period ${duty.periodMs} ms is not a multiple of ${this.#tickMs} ms`
      );
    }
    this.#duties.push(duty);
    return this;
  }
  /** The duties registered, in the order they run. */
  get duties() {
    return this.#duties;
  }
  /** Whether this process started beating (a process that never did has nothing to leave at stop). */
  get started() {
    return this.#timer !== void 0;
  }
  /** Runs every duty once now, then each on its period. */
  async start() {
    await this.#tick();
    this.#timer = setInterval(() => {
      this.#running ??= this.#tick().finally(() => {
        this.#running = void 0;
      });
    }, this.#tickMs).unref();
  }
  /** Stops the ticks and waits for the one running. */
  async stop() {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }
  async #tick() {
    const tick = this.#ticks++;
    for (const duty of dutiesDue(this.#duties, tick, this.#tickMs)) {
      await duty.run().catch((error) => {
        if (duty.failure !== void 0) this.#logger.warn({ err: error, duty: duty.name }, duty.failure);
      });
    }
  }
}
function dutiesDue(duties, tick, tickMs) {
  return duties.filter((duty) => tick % (duty.periodMs / tickMs) === 0);
}
export {
  DutyScheduler,
  dutiesDue
};
