import { type DeliverySet, wakeProbePrefix } from '../delivery/delivery-set.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { Logger } from '../telemetry/logger.js';
import {
  judgeSilentCommands,
  type LivenessReport,
  LivenessTicker,
  LivenessTracker,
  redisAnswers,
} from './liveness-tracker.js';

// The deliverers are no BullMQ workers: they drain the outboxes over a connection of their own and are
// woken through a pub/sub subscriber, so the probe job of worker-liveness.ts proves nothing about them. A
// connection that stops answering without an error (a half-open TCP connection after a failover, a
// proxy that holds its bytes) leaves every deliverer waiting on it for ever: alerts stop, nothing says so.
// So every `interval` this process pings the delivery connection and publishes a probe on the wake-up
// topic, which its own subscriber must hear. Neither answered within `timeout` while the command
// connection reaches Redis: the delivery path is stuck, and the process asks to exit non-zero for its
// supervisor to restart it (its deliverers first record what they sent over the command connection).

/** What the delivery liveness check is given; everything from outside. */
export interface DeliveryLivenessOptions {
  processId: string;
  intervalMs: number;
  timeoutMs: number;
  /** The command connection: Redis is pinged and probes are published through it. */
  commands: RedisClient;
  /** Whether a new connection reaches Redis (the referee when the command connection is silent). */
  reachable: () => Promise<boolean>;
  /** The pub/sub topic the deliverers are woken on. */
  wakeTopic: string;
  /** The delivery set running now. */
  deliveries: () => DeliverySet | undefined;
  /** Called once when the path is stuck: the process should exit non-zero. */
  onDead: (reason: string) => void;
  /** Called when a probe came through (the first of this process, or the first after a problem). */
  onAlive?: () => void;
  logger: Logger;
  now?: () => number;
}

/** Proves, in one daemon process, that its delivery path still reads Redis and hears wake-ups. */
export class DeliveryLiveness {
  readonly #o: DeliveryLivenessOptions;
  readonly #now: () => number;
  readonly #tracker: LivenessTracker;
  readonly #ticker: LivenessTicker;
  #seq = 0;
  /** The latest probe answered on the delivery connection, and the latest one proven both ways. */
  #pinged = 0;
  #proven = 0;

  constructor(options: DeliveryLivenessOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#tracker = new LivenessTracker({
      logger: options.logger,
      now: this.#now,
      onDead: options.onDead,
      words: {
        back: 'the delivery path answers again',
        dead: 'the delivery path is stuck: exiting for the supervisor to restart the process',
      },
    });
    this.#ticker = new LivenessTicker({
      intervalMs: options.intervalMs,
      check: () => this.#check(),
      skip: () => this.#tracker.dead,
      onError: (error) => options.logger.debug({ err: error }, 'delivery liveness check failed'),
    });
  }

  /** Starts probing every `intervalMs`. */
  start(): void {
    this.#ticker.start();
  }

  /** Stops probing. */
  stop(): void {
    this.#ticker.stop();
  }

  /** The current state, for `/readyz`. */
  report(): LivenessReport {
    return this.#tracker.report();
  }

  async #check(): Promise<void> {
    const now = this.#now();
    const tracker = this.#tracker;
    if (!(await redisAnswers(this.#o.commands, this.#o.intervalMs))) {
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
      const silent = Math.round((now - tracker.deadlineFrom) / 1000);
      tracker.die(`no delivery probe came through for ${silent} s while Redis answers`);
      return;
    } else {
      tracker.recovering('waiting for a delivery probe to come through');
    }
    this.#probe(this.#o.deliveries());
  }

  /** Pings the delivery connection and publishes a probe its subscriber must hear; neither is awaited. */
  #probe(deliveries: DeliverySet | undefined): void {
    if (!deliveries) return;
    const seq = ++this.#seq;
    deliveries.connection.ping().then(
      () => {
        this.#pinged = Math.max(this.#pinged, seq);
      },
      () => undefined,
    );
    const token = `${wakeProbePrefix(this.#o.processId)}${seq}`;
    this.#o.commands.publish(this.#o.wakeTopic, token).catch(() => undefined);
  }

  /** The latest of this process's probes the subscriber heard (0: none). */
  #heard(deliveries: DeliverySet): number {
    const heard = deliveries.probeHeard();
    const own = wakeProbePrefix(this.#o.processId);
    if (heard === undefined || !heard.startsWith(own)) return 0;
    return Number(heard.slice(own.length)) || 0;
  }
}
