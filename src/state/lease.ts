import { LEASE_SCRIPT, RELEASE_SCRIPT } from './outbox-lua.js';
import type { RedisClient } from './redis-connection.js';

/**
 * A short lease in Redis, renewed while its holder works and released atomically (compare and delete).
 * A holder that dies stops renewing, so its lease lapses within `ttlMs`; one whose owner string starts
 * with `takeoverPrefix` is taken over at once (a retry of the same job finds its own dead run's lease).
 */
export class Lease {
  readonly #redis: RedisClient;
  readonly #key: string;
  readonly #owner: string;
  readonly #ttlMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(redis: RedisClient, key: string, owner: string, ttlMs: number) {
    this.#redis = redis;
    this.#key = key;
    this.#owner = owner;
    this.#ttlMs = Math.max(1_000, Math.round(ttlMs));
  }

  /** The value stored while held: fencing checks in scripts compare against it. */
  get owner(): string {
    return this.#owner;
  }

  /** Takes the lease, or renews it if already ours; true when held afterwards. */
  async take(takeoverPrefix = ''): Promise<boolean> {
    const reply = await this.#redis.eval(
      LEASE_SCRIPT,
      1,
      this.#key,
      this.#owner,
      this.#ttlMs,
      takeoverPrefix,
    );
    return reply === 1;
  }

  /** Renews the lease every third of its life until {@link release}. */
  keepAlive(onLost: () => void = () => undefined): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.take().then(
        (held) => {
          if (!held) onLost();
        },
        () => undefined,
      );
    }, this.#ttlMs / 3);
    this.#timer.unref();
  }

  /** Stops renewing and deletes the lease if it is still ours. */
  async release(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#redis.eval(RELEASE_SCRIPT, 1, this.#key, this.#owner);
  }
}
