import { type DeliveryError, isDeliveryError } from '../delivery-error.js';

/**
 * A 429 waited out in place up to this long; a longer one goes to the deliverer, which pauses the channel
 * for it (and says so), as a worker asleep for minutes holds the channel's lease for nothing.
 */
export const MAX_IN_PLACE_WAIT_MS = 30_000;

/** What a gate needs: the clock and a sleep. */
export interface GateDeps {
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
}

function isRateLimited(error: unknown): error is DeliveryError & { retryAfterMs: number } {
  return isDeliveryError(error) && error.outcome === 'rate-limit' && error.retryAfterMs !== undefined;
}

/**
 * Slack's Web API limits each method on its own tier (`chat.postMessage` about one a second per channel,
 * `chat.update` and `users.lookupByEmail` per minute): a 429 from one method blocks that method until its
 * Retry-After and no other. A call refused with a 429 waits it out once and is tried again; a second 429,
 * or a Retry-After past {@link MAX_IN_PLACE_WAIT_MS}, is thrown for the deliverer to pause the channel:
 * one retry per refusal, never a storm.
 */
export class MethodGate {
  readonly #until = new Map<string, number>();
  readonly #deps: GateDeps;

  constructor(deps: GateDeps) {
    this.#deps = deps;
  }

  /** Runs `attempt` for `method` once its block (if any) is over, waiting out one 429. */
  async run<T>(method: string, attempt: () => Promise<T>): Promise<T> {
    await this.#ready(method);
    try {
      return await attempt();
    } catch (error) {
      if (!isRateLimited(error) || error.retryAfterMs > MAX_IN_PLACE_WAIT_MS) throw error;
      this.#until.set(method, this.#deps.now().getTime() + error.retryAfterMs);
      await this.#ready(method);
      return await attempt();
    }
  }

  /** When `method` may be called again (epoch ms), or undefined when it is not blocked. */
  blockedUntil(method: string): number | undefined {
    const until = this.#until.get(method);
    return until !== undefined && until > this.#deps.now().getTime() ? until : undefined;
  }

  async #ready(method: string): Promise<void> {
    const until = this.blockedUntil(method);
    if (until === undefined) return;
    await this.#deps.sleep(until - this.#deps.now().getTime());
  }
}
