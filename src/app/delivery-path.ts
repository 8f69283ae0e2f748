import type { ChannelConfig } from '../config/schema.js';
import { deliveryParts } from '../delivery/delivery-context.js';
import { DeliverySet } from '../delivery/delivery-set.js';
import type { DeliveryParts } from '../delivery/parts.js';
import { DeliveryLiveness } from '../ops/delivery-liveness.js';
import type { RedisHealth } from '../ops/redis-health.js';
import { redisReachable } from '../ops/redis-reachable.js';
import type { LivenessReport } from '../ops/worker-liveness.js';
import type { Notices } from '../state/notices.js';
import { connectWithin, openRedis, type RedisClient } from '../state/redis-connection.js';
import { clearProcessStuck } from './process-stuck.js';

/** What the delivery path is built from. */
interface DeliveryPathParts {
  ctx: DeliveryParts & { notices: Pick<Notices, 'raise' | 'clear'> };
  health: RedisHealth;
  /** The command connection liveness pings Redis and publishes its probes through. */
  commands: RedisClient;
  connectionName: string;
  /** Called once when the path is stuck (the process exits 1, for its supervisor to restart it). */
  onDead: (reason: string) => void;
}

/**
 * The deliverers of this process on connections of their own (the outbox connection and the wake-up
 * subscriber), and their liveness (src/ops/delivery-liveness.ts): a path that stops answering makes the
 * process exit (crash-only: a path rebuilt in place would drop the memory of what it sent), and its
 * close records what was sent over the command connection first.
 */
export class DeliveryPath {
  readonly #parts: DeliveryPathParts;
  #deliveries: DeliverySet | undefined;
  #liveness: DeliveryLiveness | undefined;

  constructor(parts: DeliveryPathParts) {
    this.#parts = parts;
  }

  /** Starts the deliverers; `watch` then proves they are woken and reach Redis. */
  async start(): Promise<void> {
    this.#deliveries = await this.#open();
  }

  /** Starts proving the path alive every `interval` (the config's `redis.liveness`). */
  watch(liveness: { interval: number; timeout: number }): void {
    const { ctx, commands, onDead } = this.#parts;
    this.#liveness = new DeliveryLiveness({
      processId: ctx.processId,
      intervalMs: liveness.interval,
      timeoutMs: liveness.timeout,
      commands,
      reachable: () => redisReachable(ctx.settings().config.redis, `${this.#parts.connectionName}:referee`),
      wakeTopic: ctx.outbox.wakeChannel,
      deliveries: () => this.#deliveries,
      onDead,
      onAlive: () => clearProcessStuck(ctx.notices, ctx.processId),
      logger: ctx.logger,
      now: () => ctx.now().getTime(),
    });
    this.#liveness.start();
  }

  /** Whether the path still answers; undefined until watched. */
  get liveness(): LivenessReport | undefined {
    return this.#liveness?.report();
  }

  /** After a reload: deliverers for the channels configured now. */
  sync(channels: readonly ChannelConfig[]): void {
    this.#deliveries?.sync(channels);
  }

  /** Stops the liveness watch, then finishes messages in flight (up to `timeoutMs`). */
  async close(timeoutMs: number): Promise<void> {
    this.#liveness?.stop();
    await this.#deliveries?.close(timeoutMs);
  }

  async #open(): Promise<DeliverySet> {
    const { ctx, health, connectionName } = this.#parts;
    const { redis } = ctx.settings().config;
    const connection = openRedis(redis, { purpose: 'commands', name: `${connectionName}:deliver` });
    const wake = openRedis(redis, { purpose: 'subscriber', name: `${connectionName}:wake` });
    health.watchClient('deliver', connection);
    health.watchClient('wake', wake);
    const handOver = async () => {
      const fresh = openRedis(redis, { purpose: 'commands', name: `${connectionName}:hand-over` });
      fresh.on('error', () => undefined);
      await connectWithin(fresh, 3_000);
      return fresh;
    };
    const deliveries = new DeliverySet(deliveryParts(ctx, connection), wake, handOver);
    await deliveries.start();
    return deliveries;
  }
}
