import { randomUUID } from "node:crypto";
import { stateKeys } from "./keys.js";
class StateEpoch {
  #redis;
  #key;
  #known;
  constructor(redis, root) {
    this.#redis = redis;
    this.#key = stateKeys(root).epoch;
  }
  /** Reads (creating when absent) the epoch and compares it with the one this process saw first. */
  async check() {
    await this.#redis.set(this.#key, randomUUID(), "NX");
    const epoch = await this.#redis.get(this.#key) ?? "";
    const previous = this.#known;
    this.#known = epoch;
    if (previous === void 0 || previous === epoch) return { lost: false, epoch };
    return { lost: true, epoch, previous };
  }
}
export {
  StateEpoch
};
