import { deliveryParts } from "../delivery/delivery-context.js";
import { DeliverySet } from "../delivery/delivery-set.js";
import { DeliveryLiveness } from "../ops/delivery-liveness.js";
import { redisReachable } from "../ops/redis-reachable.js";
import { connectWithin, openRedis } from "../state/redis-connection.js";
import { clearProcessStuck } from "./process-stuck.js";
class DeliveryPath {
  #parts;
  #deliveries;
  #liveness;
  constructor(parts) {
    this.#parts = parts;
  }
  /** Starts the deliverers; `watch` then proves they are woken and reach Redis. */
  async start() {
    this.#deliveries = await this.#open();
  }
  /** Starts proving the path alive every `interval` (the config's `redis.liveness`). */
  watch(liveness) {
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
      now: () => ctx.now().getTime()
    });
    this.#liveness.start();
  }
  /** Whether the path still answers; undefined until watched. */
  get liveness() {
    return this.#liveness?.report();
  }
  /** After a reload: deliverers for the channels configured now. */
  sync(channels) {
    this.#deliveries?.sync(channels);
  }
  /** Stops the liveness watch, then finishes messages in flight (up to `timeoutMs`). */
  async close(timeoutMs) {
    this.#liveness?.stop();
    await this.#deliveries?.close(timeoutMs);
  }
  async #open() {
    const { ctx, health, connectionName } = this.#parts;
    const { redis } = ctx.settings().config;
    const connection = openRedis(redis, { purpose: "commands", name: `${connectionName}:deliver` });
    const wake = openRedis(redis, { purpose: "subscriber", name: `${connectionName}:wake` });
    health.watchClient("deliver", connection);
    health.watchClient("wake", wake);
    const handOver = async () => {
      const fresh = openRedis(redis, { purpose: "commands", name: `${connectionName}:hand-over` });
      fresh.on("error", () => void 0);
      await connectWithin(fresh, 3e3);
      return fresh;
    };
    const deliveries = new DeliverySet(deliveryParts(ctx, connection), wake, handOver);
    await deliveries.start();
    return deliveries;
  }
}
export {
  DeliveryPath
};
