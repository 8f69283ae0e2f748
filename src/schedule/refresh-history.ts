import { stateKeys } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';
import { refreshInstant } from './refresh-profile.js';

/** Refreshes remembered: about half a year of business days, more than the profile's half-life needs. */
const KEPT = 200;

/** One refresh the gate saw. */
export interface SeenRefresh {
  /** When the gate first saw it: which day window's tokens pay for its sweep (`seenToday`). */
  seenAt: number;
  /** When it happened, as far as that check can tell (`refreshInstant`): what the profile learns. */
  at: number;
}

/**
 * The dataset refreshes the gate has seen, shared by every process: what the refresh profile is learned
 * from, and what tells whether today's refresh has come. Each keeps two instants: when the gate first
 * saw it (a ZSET `last_updated` → ms) and when it happened (a HASH beside it, `refreshInstant`: its
 * `last_updated` when precise and after the previous check, else the check's time). A refresh at 23:50
 * seen at 00:10 happened yesterday but is paid for by today's tokens.
 */
export class RefreshHistory {
  readonly #redis: RedisClient;
  readonly #key: string;
  readonly #atKey: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#key = stateKeys(prefix).refreshes;
    this.#atKey = stateKeys(prefix).refreshTimes;
  }

  /**
   * Records `lastUpdated`, seen by the check at `seenAtMs` whose previous check was at
   * `previousCheckMs`, unless already recorded; keeps the newest {@link KEPT}.
   */
  async record(lastUpdated: string, seenAtMs: number, previousCheckMs: number | null): Promise<void> {
    const first = (await this.#redis.zcard(this.#key)) === 0;
    const at = refreshInstant(lastUpdated, seenAtMs, first ? null : previousCheckMs, first);
    if (Number.isNaN(at)) return;
    const [added] = (await this.#redis
      .multi()
      .zadd(this.#key, 'NX', first ? at : seenAtMs, lastUpdated)
      .hsetnx(this.#atKey, lastUpdated, at)
      .exec()) ?? [[null, 0]];
    if (added?.[1] !== 1) return;
    const dropped = await this.#redis.zpopmin(
      this.#key,
      Math.max(0, (await this.#redis.zcard(this.#key)) - KEPT),
    );
    const members = dropped.filter((_, i) => i % 2 === 0);
    if (members.length > 0) await this.#redis.hdel(this.#atKey, ...members);
  }

  /** Every remembered refresh, oldest first by when the gate saw it. */
  async list(): Promise<SeenRefresh[]> {
    const [raw, times] = await Promise.all([
      this.#redis.zrange(this.#key, 0, -1, 'WITHSCORES'),
      this.#redis.hgetall(this.#atKey),
    ]);
    const out: SeenRefresh[] = [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const member = raw[i] ?? '';
      const seenAt = Number(raw[i + 1]);
      const at = Number(times[member] ?? seenAt);
      if (Number.isFinite(seenAt)) out.push({ seenAt, at: Number.isFinite(at) ? at : seenAt });
    }
    return out;
  }
}
