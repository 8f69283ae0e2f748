import { stateKeys } from "../state/keys.js";
import { refreshInstant } from "./refresh-profile.js";
const KEPT = 200;
class RefreshHistory {
  #redis;
  #key;
  #atKey;
  constructor(redis, prefix) {
    this.#redis = redis;
    this.#key = stateKeys(prefix).refreshes;
    this.#atKey = stateKeys(prefix).refreshTimes;
  }
  /**
   * Records `lastUpdated`, seen by the check at `seenAtMs` whose previous check was at
   * `previousCheckMs`, unless already recorded; keeps the newest {@link KEPT}.
   */
  async record(lastUpdated, seenAtMs, previousCheckMs) {
    const first = await this.#redis.zcard(this.#key) === 0;
    const at = refreshInstant(lastUpdated, seenAtMs, first ? null : previousCheckMs, first);
    if (Number.isNaN(at)) return;
    const [added] = await this.#redis.multi().zadd(this.#key, "NX", first ? at : seenAtMs, lastUpdated).hsetnx(this.#atKey, lastUpdated, at).exec() ?? [[null, 0]];
    if (added?.[1] !== 1) return;
    const dropped = await this.#redis.zpopmin(
      this.#key,
      Math.max(0, await this.#redis.zcard(this.#key) - KEPT)
    );
    const members = dropped.filter((_, i) => i % 2 === 0);
    if (members.length > 0) await this.#redis.hdel(this.#atKey, ...members);
  }
  /** Every remembered refresh, oldest first by when the gate saw it. */
  async list() {
    const [raw, times] = await Promise.all([
      this.#redis.zrange(this.#key, 0, -1, "WITHSCORES"),
      this.#redis.hgetall(this.#atKey)
    ]);
    const out = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const member = raw[i] ?? "";
      const seenAt = Number(raw[i + 1]);
      const at = Number(times[member] ?? seenAt);
      if (Number.isFinite(seenAt)) out.push({ seenAt, at: Number.isFinite(at) ? at : seenAt });
    }
    return out;
  }
}
export {
  RefreshHistory
};
