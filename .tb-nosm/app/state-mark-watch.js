const MARK_CHECK_MS = 1e3;
class StateMarkWatch {
  #mark;
  #report;
  #timer;
  #running;
  /** A rollback found whose report failed (Redis still settling after the failover): told at the next tick. */
  #unreported;
  constructor(mark, report) {
    this.#mark = mark;
    this.#report = report;
  }
  /** Starts reading; a reading still under way skips the next tick. */
  start() {
    this.#timer ??= setInterval(() => {
      this.#running ??= this.#tick().finally(() => {
        this.#running = void 0;
      });
    }, MARK_CHECK_MS);
  }
  /** Stops, waiting for the reading under way. */
  async stop() {
    clearInterval(this.#timer);
    this.#timer = void 0;
    await this.#running;
  }
  async #tick() {
    try {
      this.#unreported ??= await this.#mark.check();
      if (this.#unreported) await this.#report(this.#unreported);
      this.#unreported = void 0;
    } catch {
    }
  }
}
export {
  MARK_CHECK_MS,
  StateMarkWatch
};
