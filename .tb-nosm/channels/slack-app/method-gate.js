import { isDeliveryError } from "../delivery-error.js";
const MAX_IN_PLACE_WAIT_MS = 3e4;
function isRateLimited(error) {
  return isDeliveryError(error) && error.outcome === "rate-limit" && error.retryAfterMs !== void 0;
}
class MethodGate {
  #until = /* @__PURE__ */ new Map();
  #deps;
  constructor(deps) {
    this.#deps = deps;
  }
  /** Runs `attempt` for `method` once its block (if any) is over, waiting out one 429. */
  async run(method, attempt) {
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
  blockedUntil(method) {
    const until = this.#until.get(method);
    return until !== void 0 && until > this.#deps.now().getTime() ? until : void 0;
  }
  async #ready(method) {
    const until = this.blockedUntil(method);
    if (until === void 0) return;
    await this.#deps.sleep(until - this.#deps.now().getTime());
  }
}
export {
  MAX_IN_PLACE_WAIT_MS,
  MethodGate
};
