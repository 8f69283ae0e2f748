import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

/**
 * The channels a deployment has run with, by name: a channel that leaves the config still has an outbox
 * in Redis, and this is how a later process finds it without SCAN (to park its queued work, list it in
 * `shortwatch deliveries` and tell the operator).
 */
export class ChannelRegistry {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).channels;
  }

  /** Records the configured channels (name → kind). */
  async register(channels: ReadonlyArray<{ name: string; kind: string }>): Promise<void> {
    if (channels.length === 0) return;
    await this.#redis.hset(this.#key, Object.fromEntries(channels.map((c) => [c.name, c.kind])));
  }

  /** Every channel name ever registered and not forgotten. */
  async names(): Promise<string[]> {
    return (await this.#redis.hkeys(this.#key)).sort();
  }

  /** Forgets a removed channel whose outbox is empty. */
  async forget(name: string): Promise<void> {
    await this.#redis.hdel(this.#key, name);
  }
}
