import type { ChannelMemory } from '../channels/types.js';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

// A shorter life would be no bound at all; a caller asking for less still gets this.
const MIN_TTL_MS = 1_000;

/** One channel's {@link ChannelMemory}: a string key each entry, with an expiry, under the channel's name. */
export class RedisChannelMemory implements ChannelMemory {
  readonly #redis: RedisClient;
  readonly #keys: ReturnType<typeof stateKeys>;
  readonly #channel: string;

  constructor(redis: RedisClient, root: string, channel: string) {
    this.#redis = redis;
    this.#keys = stateKeys(root);
    this.#channel = channel;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#redis.get(this.#keys.channelMemory(this.#channel, key))) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const ttl = Math.max(MIN_TTL_MS, Math.ceil(ttlMs));
    await this.#redis.set(this.#keys.channelMemory(this.#channel, key), value, 'PX', ttl);
  }
}
