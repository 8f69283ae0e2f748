class LivenessTracker {
  state = "starting";
  reason = null;
  /** The deadline runs from the latest of: start, the last proof, the end of an outage, a recreation. */
  deadlineFrom;
  dead = false;
  #lastAliveAt = null;
  #o;
  constructor(options) {
    this.#o = options;
    this.deadlineFrom = options.now();
  }
  report() {
    const { state, reason } = this;
    return { state, lastAliveAt: this.#lastAliveAt, reason };
  }
  /** Redis does not answer: nothing can be proven, and the deadline starts again once it does. */
  redisDown(now) {
    this.state = "redis-down";
    this.reason = "redis does not answer";
    this.deadlineFrom = now;
  }
  /** Redis answers again after an outage: the watched part has yet to prove it does too. */
  recovering(waitingFor) {
    if (this.state !== "redis-down") return;
    this.state = "recovering";
    this.reason = `redis answers again; ${waitingFor}`;
  }
  /** A proof came through at `now`; true when the state was not `alive` before. */
  alive(now) {
    const was = this.state;
    this.#lastAliveAt = now;
    this.deadlineFrom = now;
    if (was !== "alive" && was !== "starting")
      this.#o.logger.info({ after: this.reason }, this.#o.words.back);
    this.state = "alive";
    this.reason = null;
    return was !== "alive";
  }
  /** Gives up: the `onDead` listener asks the process to exit non-zero, for its supervisor to restart it. */
  die(reason) {
    this.dead = true;
    this.state = "stuck";
    this.reason = reason;
    this.#o.logger.fatal({ reason }, this.#o.words.dead);
    this.#o.onDead(reason);
  }
}
async function judgeSilentCommands(tracker, now, timeoutMs, reachable) {
  if (!await reachable()) {
    tracker.redisDown(now);
    return;
  }
  tracker.state = "recovering";
  tracker.reason = "the command connection does not answer while a new connection reaches Redis";
  if (now - tracker.deadlineFrom > timeoutMs) tracker.die(tracker.reason);
}
function redisAnswers(commands, intervalMs) {
  const timeout = new Promise(
    (resolve) => setTimeout(() => resolve(false), Math.min(intervalMs, 2e3)).unref()
  );
  const ping = commands.ping().then(
    () => true,
    () => false
  );
  return Promise.race([ping, timeout]);
}
class LivenessTicker {
  #intervalMs;
  #check;
  #skip;
  #onError;
  #timer;
  #ticking = false;
  constructor(options) {
    this.#intervalMs = options.intervalMs;
    this.#check = options.check;
    this.#skip = options.skip;
    this.#onError = options.onError;
  }
  start() {
    void this.#tick();
    this.#timer = setInterval(() => void this.#tick(), this.#intervalMs).unref();
  }
  stop() {
    if (this.#timer) clearInterval(this.#timer);
  }
  async #tick() {
    if (this.#ticking || this.#skip()) return;
    this.#ticking = true;
    try {
      await this.#check();
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#ticking = false;
    }
  }
}
export {
  LivenessTicker,
  LivenessTracker,
  judgeSilentCommands,
  redisAnswers
};
