class ProbeClaims {
  #byRequest = /* @__PURE__ */ new Map();
  /** Remembers that `info`'s token claimed the probe at `claim` (Redis ms). */
  add(info, claim) {
    const key = requestKey(info);
    this.#byRequest.set(key, [...this.#byRequest.get(key) ?? [], claim]);
  }
  /** The claim of the request `info` answers, if it was a probe; forgets it. */
  take(info) {
    const key = requestKey(info);
    const [claim, ...rest] = this.#byRequest.get(key) ?? [];
    if (rest.length > 0) this.#byRequest.set(key, rest);
    else this.#byRequest.delete(key);
    return claim;
  }
}
function requestKey(info) {
  return `${info.operation} ${info.method} ${info.path} #${info.attempt}`;
}
export {
  ProbeClaims
};
