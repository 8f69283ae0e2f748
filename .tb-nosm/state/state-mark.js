import { z } from "zod";
import { stateKeys } from "./keys.js";
const RAISE_MARK_LUA = `
local function raise_mark(key, now)
  redis.call('HINCRBY', key, 'seq', 1)
  redis.call('HSET', key, 'at', now)
end
`;
const RAISE_SCRIPT = `${RAISE_MARK_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
raise_mark(KEYS[1], now)
return {tonumber(redis.call('HGET', KEYS[1], 'seq')), now, redis.call('GET', KEYS[2]) or ''}
`;
const READ_SCRIPT = `
local m = redis.call('HMGET', KEYS[1], 'seq', 'at')
return {tonumber(m[1] or '0'), tonumber(m[2] or '0'), redis.call('GET', KEYS[2]) or ''}
`;
const readingSchema = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative(), z.string()]).transform(([seq, at, epoch]) => ({ seq, at, epoch }));
function describeRollback(rollback) {
  const { seen, found } = rollback;
  const lost = seen.seq - found.seq;
  const seconds = Math.max(0, (seen.at - found.at) / 1e3);
  return `${lost} write${lost === 1 ? "" : "s"} of the high-water mark (${seen.seq} seen, ${found.seq} now), the last ${seconds.toFixed(1)} s before ${new Date(seen.at).toISOString()} (Redis' time)`;
}
function judgeReading(high, reading) {
  if (!high || reading.epoch === "" || high.epoch !== reading.epoch) return { high: reading };
  if (reading.seq >= high.seq) return { high: reading };
  return {
    high: reading,
    rollback: { seen: { seq: high.seq, at: high.at }, found: { seq: reading.seq, at: reading.at } }
  };
}
class StateMark {
  #redis;
  #keys;
  #highs = /* @__PURE__ */ new WeakMap();
  constructor(redis, root) {
    this.#redis = redis;
    const keys = stateKeys(root);
    this.#keys = [keys.stateMark, keys.epoch];
  }
  /** Raises the mark on `client` (a write that follows all of that connection's earlier ones); a rollback found. */
  async raise(client) {
    return this.#observe(client, await client.eval(RAISE_SCRIPT, 2, ...this.#keys));
  }
  /** Reads the mark on this store's connection; a rollback found. */
  async check() {
    return this.#observe(this.#redis, await this.#redis.eval(READ_SCRIPT, 2, ...this.#keys));
  }
  #observe(stream, reply) {
    const judged = judgeReading(this.#highs.get(stream), readingSchema.parse(reply));
    this.#highs.set(stream, judged.high);
    return judged.rollback;
  }
}
export {
  RAISE_MARK_LUA,
  StateMark,
  describeRollback,
  judgeReading
};
