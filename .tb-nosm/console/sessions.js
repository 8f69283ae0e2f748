import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { stateKeys } from "../state/keys.js";
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const COUNT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;
const countReply = z.tuple([z.number(), z.number()]);
function keyOf(id) {
  return createHash("sha256").update(id).digest("hex");
}
class ConsoleSessions {
  #redis;
  #keys;
  constructor(redis, prefix) {
    this.#redis = redis;
    this.#keys = stateKeys(prefix);
  }
  /** Starts a session for a token fingerprint; answers its id (the cookie's value). */
  async create(fingerprint, ttlMs) {
    const id = randomBytes(32).toString("base64url");
    await this.#redis.set(this.#keys.consoleSession(keyOf(id)), fingerprint, "PX", ttlMs);
    return id;
  }
  /** Whether `id` is a live session made with the token whose fingerprint is given. */
  async valid(id, fingerprint) {
    if (id === void 0 || !SESSION_ID.test(id)) return false;
    const key = this.#keys.consoleSession(keyOf(id));
    const stored = await this.#redis.get(key);
    if (stored === fingerprint) return true;
    if (stored !== null) await this.#redis.del(key);
    return false;
  }
  /** Ends a session (sign-out); nothing happens for an id that is not one. */
  async revoke(id) {
    if (id !== void 0 && SESSION_ID.test(id)) await this.#redis.del(this.#keys.consoleSession(keyOf(id)));
  }
  /** Whether `address` has attempts left in its window, without counting one (a right Bearer token). */
  async signInsLeft(address, limit) {
    const key = this.#keys.consoleSignIns(address);
    const [count, ttl] = await Promise.all([this.#redis.get(key), this.#redis.pttl(key)]);
    return { allowed: Number(count ?? 0) < limit, retryInMs: Math.max(0, ttl) };
  }
  /** Counts one sign-in attempt from `address`: allowed while at most `limit` were made in the window. */
  async countSignIn(address, limit, windowMs) {
    const key = this.#keys.consoleSignIns(address);
    const [count, ttl] = countReply.parse(await this.#redis.eval(COUNT_SCRIPT, 1, key, windowMs));
    return { allowed: count <= limit, retryInMs: Math.max(0, ttl) };
  }
}
export {
  ConsoleSessions
};
