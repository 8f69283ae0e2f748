import { z } from "zod";
import { InvalidMuteError } from "../routing/mute-error.js";
import { muteKey, muteSchema } from "../routing/mutes.js";
import { stateKeys } from "./keys.js";
import { parseStored } from "./stored-json.js";
const countsSchema = z.record(z.string(), z.coerce.number().int());
class MuteStore {
  #redis;
  #root;
  #now;
  constructor(redis, root, now = Date.now) {
    this.#redis = redis;
    this.#root = root;
    this.#now = now;
  }
  /** Stores a mute for `forMs`; a mute of the same scope, target key and channel is replaced. */
  async add(request) {
    const key = muteKey(request.scope, request.target);
    if (key === "")
      throw new InvalidMuteError("mute target has no letters or digits", request.scope, request.target);
    if (!Number.isSafeInteger(request.forMs) || request.forMs <= 0) {
      throw new InvalidMuteError(
        `mute duration ${request.forMs} ms is not a positive whole number`,
        request.scope,
        request.target
      );
    }
    const createdAt = this.#now();
    const mute = {
      scope: request.scope,
      target: request.target,
      key,
      ...request.channel === void 0 ? {} : { channel: request.channel },
      until: createdAt + request.forMs,
      ...request.reason === void 0 ? {} : { reason: request.reason },
      digests: request.digests ?? false,
      createdAt
    };
    await this.#redis.hset(this.#hash, fieldOf(mute.scope, key, mute.channel), JSON.stringify(mute));
    return mute;
  }
  /** Lifts a mute; false when there was none in force. */
  async remove(scope, target, channel) {
    const field = fieldOf(scope, muteKey(scope, target), channel);
    const raw = await this.#redis.hget(this.#hash, field);
    await this.#redis.hdel(this.#hash, field);
    const parsed = parseStored(raw, muteSchema);
    return parsed.success && parsed.data.until > this.#now();
  }
  /** Every mute still in force, oldest first (ties in a stable order). */
  async list() {
    const all = await this.#redis.hgetall(this.#hash);
    const now = this.#now();
    const mutes = [];
    const lapsed = [];
    for (const [field, value] of Object.entries(all)) {
      const parsed = parseStored(value, muteSchema);
      if (parsed.success && parsed.data.until > now) mutes.push(parsed.data);
      else if (parsed.success) lapsed.push(field);
    }
    if (lapsed.length > 0) await this.#redis.hdel(this.#hash, ...lapsed);
    return mutes.sort((a, b) => a.createdAt - b.createdAt || identity(a).localeCompare(identity(b)));
  }
  /** Events kept from each channel by mutes, since counting began. */
  async suppressedCounts() {
    return countsSchema.parse(await this.#redis.hgetall(stateKeys(this.#root).muteSuppressed));
  }
  get #hash() {
    return stateKeys(this.#root).mutes;
  }
}
function fieldOf(scope, key, channel) {
  return `${scope}:${channel ?? "*"}:${key}`;
}
function identity(mute) {
  return `${mute.scope}:${mute.channel ?? ""}:${mute.key}`;
}
export {
  MuteStore
};
