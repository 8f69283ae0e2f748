import { stateKeys } from "./keys.js";
import { SENDER_BEAT_SCRIPT } from "./outbox-lua.js";
const FORGET_AFTER_MS = 24 * 60 * 6e4;
class SenderBeats {
  #redis;
  #key;
  constructor(redis, root) {
    this.#redis = redis;
    this.#key = stateKeys(root).senders;
  }
  /** Records that `incarnation` is alive now; with `sweep`, forgets those silent for a day. Returns Redis' time. */
  async beat(incarnation, sweep = false) {
    const reply = await this.#redis.eval(
      SENDER_BEAT_SCRIPT,
      1,
      this.#key,
      incarnation,
      FORGET_AFTER_MS,
      sweep ? "1" : ""
    );
    return Number(reply);
  }
  /** Forgets `incarnation`: it stopped with nothing sent and unrecorded, so no claim of its needs waiting for. */
  async forget(incarnation) {
    await this.#redis.hdel(this.#key, incarnation);
  }
  /** Redis' time (epoch ms) of `incarnation`'s last beat, or null. */
  async lastBeat(incarnation) {
    const raw = await this.#redis.hget(this.#key, incarnation);
    return raw === null ? null : Number(raw);
  }
}
export {
  SenderBeats
};
