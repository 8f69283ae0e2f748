import type { ChannelConfig } from '../config/schema.js';
import type { RedisClient } from '../state/redis-connection.js';
import { ChannelDeliverer } from './deliverer.js';
import type { DeliveryParts } from './parts.js';

/**
 * The deliverers of one process, one per configured channel, woken through Redis pub/sub whenever a
 * commit, a notice or a digest seal adds work (the deliverers also look once a second on their own).
 */
export class DeliverySet {
  readonly #ctx: DeliveryParts;
  readonly #subscriber: RedisClient;
  readonly #deliverers = new Map<string, ChannelDeliverer>();

  constructor(ctx: DeliveryParts, subscriber: RedisClient) {
    this.#ctx = ctx;
    this.#subscriber = subscriber;
  }

  /** Subscribes to wake-ups and starts a deliverer per channel. */
  async start(): Promise<void> {
    this.#subscriber.on('message', (_topic: string, channel: string) =>
      this.#deliverers.get(channel)?.poke(),
    );
    await this.#subscriber.subscribe(this.#ctx.outbox.wakeChannel);
    this.sync(this.#ctx.settings().config.channels);
  }

  /** Starts deliverers for new channels and stops those of removed ones (config reload). */
  sync(channels: readonly ChannelConfig[]): void {
    const wanted = new Set(channels.map((c) => c.name));
    for (const [name, deliverer] of this.#deliverers) {
      if (wanted.has(name)) continue;
      void deliverer.stop(5_000);
      this.#deliverers.delete(name);
    }
    for (const channel of channels) {
      if (this.#deliverers.has(channel.name)) continue;
      const deliverer = new ChannelDeliverer(this.#ctx, channel.name);
      this.#deliverers.set(channel.name, deliverer);
      deliverer.start();
    }
  }

  /** Finishes messages in flight (up to `timeoutMs`), releases every lease, unsubscribes. */
  async close(timeoutMs: number): Promise<void> {
    await Promise.all([...this.#deliverers.values()].map((d) => d.stop(timeoutMs)));
    this.#deliverers.clear();
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }
}
