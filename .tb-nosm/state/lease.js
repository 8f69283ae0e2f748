import { LEASE_SCRIPT, RELEASE_SCRIPT } from "./outbox-lua.js";
class Lease {
  #redis;
  #key;
  #owner;
  #ttlMs;
  #timer;
  constructor(redis, key, owner, ttlMs) {
    this.#redis = redis;
    this.#key = key;
    this.#owner = owner;
    this.#ttlMs = Math.max(1e3, Math.round(ttlMs));
  }
  /** The value stored while held: fencing checks in scripts compare against it. */
  get owner() {
    return this.#owner;
  }
  /** Takes the lease, or renews it if already ours; true when held afterwards. */
  async take(takeoverPrefix = "") {
    const reply = await this.#redis.eval(
      LEASE_SCRIPT,
      1,
      this.#key,
      this.#owner,
      this.#ttlMs,
      takeoverPrefix
    );
    return reply === 1;
  }
  /** Renews the lease every third of its life until {@link release}. */
  keepAlive(onLost = () => void 0) {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.take().then(
        (held) => {
          if (!held) onLost();
        },
        () => void 0
      );
    }, this.#ttlMs / 3);
    this.#timer.unref();
  }
  /** Stops renewing and deletes the lease if it is still ours. */
  async release() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = void 0;
    await this.#redis.eval(RELEASE_SCRIPT, 1, this.#key, this.#owner);
  }
}
export {
  Lease
};
