import { isConnectionError, redisErrorFields } from "../state/redis-error-fields.js";
class RedisHealth {
  #logger;
  #now;
  /** Connections whose last event was an error, by the name they are watched under. */
  #down = /* @__PURE__ */ new Set();
  #episode;
  #recoveryListeners = [];
  constructor(logger, now = Date.now) {
    this.#logger = logger;
    this.#now = now;
  }
  /** Calls `listener` each time an outage ends (every connection that failed is ready again). */
  onRecovered(listener) {
    this.#recoveryListeners.push(listener);
  }
  /** Watches an ioredis connection: every error it emits is about its connection. */
  watchClient(name, client) {
    client.on("error", (error) => this.#failed(name, error));
    client.on("ready", () => this.#ready(name));
    client.on("end", () => this.#down.delete(name));
  }
  /** Watches a BullMQ Queue, Worker or QueueEvents (and the connections BullMQ opened for it). */
  watchBull(name, emitter) {
    emitter.on("error", (error) => {
      if (isConnectionError(error)) this.#failed(name, error);
      else this.#logger.error({ source: name, error: redisErrorFields(error) }, "BullMQ error");
    });
    emitter.getBackend().on("ready", () => this.#ready(name));
  }
  #failed(name, error) {
    this.#down.add(name);
    if (this.#episode) {
      this.#episode.errors += 1;
      return;
    }
    this.#episode = { since: this.#now(), errors: 1 };
    this.#logger.warn(
      { connection: name, error: redisErrorFields(error) },
      "redis connection lost; retrying (logged once until it is back)"
    );
  }
  #ready(name) {
    this.#down.delete(name);
    const episode = this.#episode;
    if (!episode || this.#down.size > 0) return;
    this.#episode = void 0;
    this.#logger.info(
      { downForMs: this.#now() - episode.since, errors: episode.errors },
      "redis connection recovered"
    );
    for (const listener of this.#recoveryListeners) listener();
  }
}
export {
  RedisHealth
};
