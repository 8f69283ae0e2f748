import { stateKeys } from "./keys.js";
const MIN_TTL_MS = 1e3;
class RedisChannelMemory {
  #redis;
  #keys;
  #channel;
  constructor(redis, root, channel) {
    this.#redis = redis;
    this.#keys = stateKeys(root);
    this.#channel = channel;
  }
  async get(key) {
    return await this.#redis.get(this.#keys.channelMemory(this.#channel, key)) ?? void 0;
  }
  async set(key, value, ttlMs) {
    const ttl = Math.max(MIN_TTL_MS, Math.ceil(ttlMs));
    await this.#redis.set(this.#keys.channelMemory(this.#channel, key), value, "PX", ttl);
  }
}
export {
  RedisChannelMemory
};
