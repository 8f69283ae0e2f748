import { wakeProbePrefix } from "../delivery/delivery-set.js";
import {
  judgeSilentCommands,
  LivenessTicker,
  LivenessTracker,
  redisAnswers
} from "./liveness-tracker.js";
class DeliveryLiveness {
  #o;
  #now;
  #tracker;
  #ticker;
  #seq = 0;
  /** The latest probe answered on the delivery connection, and the latest one proven both ways. */
  #pinged = 0;
  #proven = 0;
  constructor(options) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#tracker = new LivenessTracker({
      logger: options.logger,
      now: this.#now,
      onDead: options.onDead,
      words: {
        back: "the delivery path answers again",
        dead: "the delivery path is stuck: exiting for the supervisor to restart the process"
      }
    });
    this.#ticker = new LivenessTicker({
      intervalMs: options.intervalMs,
      check: () => this.#check(),
      skip: () => this.#tracker.dead,
      onError: (error) => options.logger.debug({ err: error }, "delivery liveness check failed")
    });
  }
  /** Starts probing every `intervalMs`. */
  start() {
    this.#ticker.start();
  }
  /** Stops probing. */
  stop() {
    this.#ticker.stop();
  }
  /** The current state, for `/readyz`. */
  report() {
    return this.#tracker.report();
  }
  async #check() {
    const now = this.#now();
    const tracker = this.#tracker;
    if (!await redisAnswers(this.#o.commands, this.#o.intervalMs)) {
      await judgeSilentCommands(tracker, now, this.#o.timeoutMs, this.#o.reachable);
      return;
    }
    const deliveries = this.#o.deliveries();
    if (!deliveries) return;
    const proven = Math.min(this.#pinged, this.#heard(deliveries));
    if (proven > this.#proven) {
      this.#proven = proven;
      if (tracker.alive(now)) this.#o.onAlive?.();
    } else if (now - tracker.deadlineFrom > this.#o.timeoutMs) {
      const silent = Math.round((now - tracker.deadlineFrom) / 1e3);
      tracker.die(`no delivery probe came through for ${silent} s while Redis answers`);
      return;
    } else {
      tracker.recovering("waiting for a delivery probe to come through");
    }
    this.#probe(this.#o.deliveries());
  }
  /** Pings the delivery connection and publishes a probe its subscriber must hear; neither is awaited. */
  #probe(deliveries) {
    if (!deliveries) return;
    const seq = ++this.#seq;
    deliveries.connection.ping().then(
      () => {
        this.#pinged = Math.max(this.#pinged, seq);
      },
      () => void 0
    );
    const token = `${wakeProbePrefix(this.#o.processId)}${seq}`;
    this.#o.commands.publish(this.#o.wakeTopic, token).catch(() => void 0);
  }
  /** The latest of this process's probes the subscriber heard (0: none). */
  #heard(deliveries) {
    const heard = deliveries.probeHeard();
    const own = wakeProbePrefix(this.#o.processId);
    if (heard === void 0 || !heard.startsWith(own)) return 0;
    return Number(heard.slice(own.length)) || 0;
  }
}
export {
  DeliveryLiveness
};
