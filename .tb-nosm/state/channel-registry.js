import { stateKeys } from "./keys.js";
class ChannelRegistry {
  #redis;
  #key;
  constructor(redis, root) {
    this.#redis = redis;
    this.#key = stateKeys(root).channels;
  }
  /** Records the configured channels (name → kind). */
  async register(channels) {
    if (channels.length === 0) return;
    await this.#redis.hset(this.#key, Object.fromEntries(channels.map((c) => [c.name, c.kind])));
  }
  /** Every channel name ever registered and not forgotten. */
  async names() {
    return (await this.#redis.hkeys(this.#key)).sort();
  }
  /** Forgets a removed channel whose outbox is empty. */
  async forget(name) {
    await this.#redis.hdel(this.#key, name);
  }
}
export {
  ChannelRegistry
};
