import { createHash } from "node:crypto";
import { z } from "zod";
import { stateKeys } from "../state/keys.js";
import { HOUR_MS } from "../time/units.js";
import { LUA_REDIS_NOW } from "./redis-clock.js";
const ACCESS_REVOKED_NOTICE = "access-revoked";
const CONFIRM_WITHIN_MS = 6e4;
const epochMs = z.string().regex(/^\d+$/).transform(Number);
const revokedRecord = z.object({
  state: z.enum(["unauthorized", "no-api-access"]),
  since: epochMs,
  message: z.string(),
  fingerprint: z.string(),
  lastProbeAt: epochMs.optional()
});
const REVOKE_SCRIPT = `${LUA_REDIS_NOW}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'since', now, 'message', ARGV[2], 'fingerprint', ARGV[3])
return 1
`;
const RECONCILE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'fingerprint') == ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;
const CLAIM_PROBE_SCRIPT = `${LUA_REDIS_NOW}
local interval = tonumber(ARGV[1])
local last = tonumber(redis.call('GET', KEYS[1]) or '')
if last and now - last < interval then return 0 end
redis.call('SET', KEYS[1], now, 'PX', interval)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('HSET', KEYS[2], 'lastProbeAt', now) end
return 1
`;
class AccessState {
  #redis;
  #key;
  #probeKey;
  #confirmKey;
  #now;
  constructor(redis, prefix, now = Date.now) {
    this.#redis = redis;
    this.#key = stateKeys(prefix).access;
    this.#probeKey = stateKeys(prefix).accessProbe;
    this.#confirmKey = stateKeys(prefix).accessConfirm;
    this.#now = now;
  }
  /**
   * The current status, its instants on Redis' clock (the same from any process); an unreadable record
   * counts as revoked, so a damaged key never unleashes polling.
   */
  async get() {
    const raw = await this.#redis.hgetall(this.#key);
    if (Object.keys(raw).length === 0) return { state: "ok" };
    const parsed = revokedRecord.safeParse(raw);
    if (!parsed.success) {
      return {
        state: "unauthorized",
        since: this.#now(),
        message: `the access record ${this.#key} in Redis is unreadable; it is cleared when the config is reconciled`,
        fingerprint: "",
        lastProbeAt: null
      };
    }
    return { ...parsed.data, lastProbeAt: parsed.data.lastProbeAt ?? null };
  }
  /** Marks access lost; true only for the one call that changed it from ok, so one notice is raised. */
  async revoke(state, message, fingerprint) {
    const changed = await this.#redis.eval(REVOKE_SCRIPT, 1, this.#key, state, message, fingerprint);
    return changed === 1;
  }
  /** Marks access ok again; true if it was revoked. */
  async restore() {
    return await this.#redis.del(this.#key) > 0;
  }
  /** Restores access when the config's fingerprint differs from the refused one (a new key or URL); true if restored. */
  async reconcile(fingerprint) {
    return await this.#redis.eval(RECONCILE_SCRIPT, 1, this.#key, fingerprint) === 1;
  }
  /**
   * An interactive command (a colleague's `check`, `issuers`) was refused with the key of `fingerprint`.
   * Its word alone changes nothing: a daemon configured with that key checks with a request of its own
   * ({@link takeConfirmation}), and only that request's 401/403 stops polling. A key no daemon uses lapses.
   */
  async requestConfirmation(fingerprint) {
    await this.#redis.multi().sadd(this.#confirmKey, fingerprint).pexpire(this.#confirmKey, CONFIRM_WITHIN_MS).exec();
  }
  /** Takes the request to check the key of `fingerprint`: true for the one process that should check. */
  async takeConfirmation(fingerprint) {
    return await this.#redis.srem(this.#confirmKey, fingerprint) === 1;
  }
  /** Claims the right to send the access probe; at most one claim per `intervalMs` (by Redis' clock) across all processes. */
  async claimProbe(intervalMs = HOUR_MS) {
    const claimed = await this.#redis.eval(CLAIM_PROBE_SCRIPT, 2, this.#probeKey, this.#key, intervalMs);
    return claimed === 1;
  }
}
function accessFingerprint(baseUrl, apiKey) {
  const key = typeof apiKey === "string" ? apiKey : apiKey.reveal();
  return createHash("sha256").update(`${baseUrl}
${key}`).digest("hex").slice(0, 16);
}
export {
  ACCESS_REVOKED_NOTICE,
  AccessState,
  accessFingerprint
};
