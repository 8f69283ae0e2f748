import { randomUUID } from 'node:crypto';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';

/** What a check of the state epoch found. */
export type EpochCheck = { lost: false; epoch: string } | { lost: true; epoch: string; previous: string };

/**
 * The identity of a deployment's Redis state. The first process to find no epoch writes one (SET NX);
 * every process remembers the epoch it first saw. When Redis loses its data (FLUSHALL, a restart without
 * persistence, a failover to an empty replica) the key vanishes with everything else, the next check
 * writes a new one, and every process that remembered the old epoch reports the loss. A loss while no
 * shortwatch process runs cannot be told from a new deployment: the epoch lives only in Redis.
 */
export class StateEpoch {
  readonly #redis: RedisClient;
  readonly #key: string;
  #known: string | undefined;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).epoch;
  }

  /** Reads (creating when absent) the epoch and compares it with the one this process saw first. */
  async check(): Promise<EpochCheck> {
    await this.#redis.set(this.#key, randomUUID(), 'NX');
    const epoch = (await this.#redis.get(this.#key)) ?? '';
    const previous = this.#known;
    this.#known = epoch;
    if (previous === undefined || previous === epoch) return { lost: false, epoch };
    return { lost: true, epoch, previous };
  }
}
