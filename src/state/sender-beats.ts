import { stateKeys } from './keys.js';
import { SENDER_BEAT_SCRIPT } from './outbox-lua.js';
import type { RedisClient } from './redis-connection.js';

/** An incarnation silent this long is forgotten: far past any grace, so none is still waited for. */
const FORGET_AFTER_MS = 24 * 60 * 60_000;

/**
 * The heartbeats of every process incarnation's delivery path (`<t>:senders`, Redis' clock): a lease
 * holder leaves a message another incarnation claimed until that incarnation has been silent for the
 * claim grace (state/outbox.ts `takeOver`), since a live claimant may have sent it and not recorded it yet.
 */
export class SenderBeats {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).senders;
  }

  /** Records that `incarnation` is alive now; with `sweep`, forgets those silent for a day. Returns Redis' time. */
  async beat(incarnation: string, sweep = false): Promise<number> {
    const reply = await this.#redis.eval(
      SENDER_BEAT_SCRIPT,
      1,
      this.#key,
      incarnation,
      FORGET_AFTER_MS,
      sweep ? '1' : '',
    );
    return Number(reply);
  }

  /** Forgets `incarnation`: it stopped with nothing sent and unrecorded, so no claim of its needs waiting for. */
  async forget(incarnation: string): Promise<void> {
    await this.#redis.hdel(this.#key, incarnation);
  }

  /** Redis' time (epoch ms) of `incarnation`'s last beat, or null. */
  async lastBeat(incarnation: string): Promise<number | null> {
    const raw = await this.#redis.hget(this.#key, incarnation);
    return raw === null ? null : Number(raw);
  }
}
