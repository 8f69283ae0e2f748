import { type DeliverySet, wakeProbePrefix } from '../delivery/delivery-set.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { Logger } from '../telemetry/logger.js';
import type { LivenessReport } from './worker-liveness.js';

// The deliverers are no BullMQ workers: they drain the outboxes over a connection of their own and are
// woken through a pub/sub subscriber, so the probe job of worker-liveness.ts proves nothing about them. A
// connection that stops answering without an error (a half-open TCP connection after a failover, a
// proxy that holds its bytes) leaves every deliverer waiting on it for ever: alerts stop, nothing says so.
// So every `interval` this process pings the delivery connection and publishes a probe on the wake-up
// topic, which its own subscriber must hear. Neither answered within `timeout` while the command
// connection reaches Redis: the delivery path is stuck; it is replaced once (new connections, new
// deliverers), and if that does not bring a probe through within another timeout the process asks to exit
// non-zero, for its supervisor to restart it.

/** What the delivery liveness check is given; everything from outside. */
export interface DeliveryLivenessOptions {
  processId: string;
  intervalMs: number;
  timeoutMs: number;
  /** The command connection: Redis is pinged and probes are published through it. */
  commands: RedisClient;
  /** The pub/sub topic the deliverers are woken on. */
  wakeTopic: string;
  /** The delivery set running now (a recreation replaces it). */
  deliveries: () => DeliverySet | undefined;
  /** Abandons the stuck delivery set and starts a new one on new connections. */
  recreate: () => Promise<void>;
  /** Called once when recreating did not help: the process should exit non-zero. */
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
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #seq = 0;
  /** The latest probe answered on the delivery connection, and the latest one proven both ways. */
  #pinged = 0;
  #proven = 0;
  #deadlineFrom: number;
  #lastAliveAt: number | null = null;
  #recreatedSinceAlive = false;
  #recreations = 0;
  #state: LivenessReport['state'] = 'starting';
  #reason: string | null = null;
  #dead = false;

  constructor(options: DeliveryLivenessOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#deadlineFrom = this.#now();
  }

  /** Starts probing every `intervalMs`. */
  start(): void {
    void this.#tick();
    this.#timer = setInterval(() => void this.#tick(), this.#o.intervalMs).unref();
  }

  /** Stops probing. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  /** The current state, for `/readyz`. */
  report(): LivenessReport {
    return {
      state: this.#state,
      lastAliveAt: this.#lastAliveAt,
      recreations: this.#recreations,
      reason: this.#reason,
    };
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#dead) return;
    this.#ticking = true;
    try {
      await this.#check();
    } catch (error) {
      // A check that failed half-way proves nothing either way: the next tick decides.
      this.#o.logger.debug({ err: error }, 'delivery liveness check failed');
    } finally {
      this.#ticking = false;
    }
  }

  async #check(): Promise<void> {
    const now = this.#now();
    if (!(await this.#redisAnswers())) {
      this.#state = 'redis-down';
      this.#reason = 'redis does not answer';
      this.#deadlineFrom = now;
      return;
    }
    const deliveries = this.#o.deliveries();
    if (!deliveries) return;
    const proven = Math.min(this.#pinged, this.#heard(deliveries));
    if (proven > this.#proven) this.#alive(proven, now);
    else if (now - this.#deadlineFrom > this.#o.timeoutMs) {
      await this.#stuck(
        `no delivery probe came through for ${Math.round((now - this.#deadlineFrom) / 1000)} s while Redis answers`,
      );
      if (this.#dead) return;
    } else if (this.#state === 'redis-down') {
      this.#state = 'recovering';
      this.#reason = 'redis answers again; waiting for a delivery probe to come through';
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

  #alive(proven: number, now: number): void {
    const wasAlive = this.#state === 'alive';
    this.#proven = proven;
    this.#lastAliveAt = now;
    this.#deadlineFrom = now;
    this.#recreatedSinceAlive = false;
    if (this.#state !== 'alive' && this.#state !== 'starting')
      this.#o.logger.info({ after: this.#reason }, 'the delivery path answers again');
    this.#state = 'alive';
    this.#reason = null;
    if (!wasAlive) this.#o.onAlive?.();
  }

  async #stuck(reason: string): Promise<void> {
    this.#state = 'stuck';
    this.#reason = reason;
    if (this.#recreatedSinceAlive) {
      this.#dead = true;
      this.#o.logger.fatal({ reason }, 'the delivery path cannot recover in this process: exiting');
      this.#o.onDead(reason);
      return;
    }
    this.#o.logger.error({ reason }, 'delivery path stuck: recreating its Redis connections and deliverers');
    this.#recreations += 1;
    this.#recreatedSinceAlive = true;
    // Probes sent to the old set prove nothing about the new one.
    this.#pinged = this.#proven;
    await this.#o.recreate();
    this.#deadlineFrom = this.#now();
  }

  async #redisAnswers(): Promise<boolean> {
    // A ping that waits on reconnects counts as no answer: bounded well under one interval.
    const timeout = new Promise<false>((resolve) =>
      setTimeout(() => resolve(false), Math.min(this.#o.intervalMs, 2_000)).unref(),
    );
    const ping = this.#o.commands.ping().then(
      () => true,
      () => false,
    );
    return Promise.race([ping, timeout]);
  }
}
