import { stateKeys } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';

/** Refreshes remembered: about half a year of business days, more than the profile's half-life needs. */
const KEPT = 200;

/**
 * The dataset refreshes the gate has seen (their `last_updated`), shared by every process: what the
 * refresh profile is learned from. Written by the sweep when `last_updated` moves.
 */
export class RefreshHistory {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#key = stateKeys(prefix).refreshes;
  }

  /** Records one `last_updated` (idempotent), keeping the newest {@link KEPT}. */
  async record(lastUpdated: string): Promise<void> {
    const at = Date.parse(lastUpdated);
    if (Number.isNaN(at)) return;
    await this.#redis
      .multi()
      .zadd(this.#key, at, lastUpdated)
      .zremrangebyrank(this.#key, 0, -KEPT - 1)
      .exec();
  }

  /** Every remembered refresh, epoch ms, oldest first. */
  async list(): Promise<number[]> {
    const raw = await this.#redis.zrange(this.#key, 0, -1, 'WITHSCORES');
    const out: number[] = [];
    for (let i = 1; i < raw.length; i += 2) {
      const at = Number(raw[i]);
      if (Number.isFinite(at)) out.push(at);
    }
    return out;
  }
}
