import type { RequestInfo } from '../upstream/request-info.js';

/**
 * The rate-limit probe tokens one guard handed out, by request, until the request's answer comes: only
 * the probe's own answer may end probing, not a response to a request sent before the 429.
 * A request is known by operation, path and attempt (the same in `beforeRequest` and `afterResponse`).
 */
export class ProbeClaims {
  readonly #byRequest = new Map<string, number[]>();

  /** Remembers that `info`'s token claimed the probe at `claim` (Redis ms). */
  add(info: RequestInfo, claim: number): void {
    const key = requestKey(info);
    this.#byRequest.set(key, [...(this.#byRequest.get(key) ?? []), claim]);
  }

  /** The claim of the request `info` answers, if it was a probe; forgets it. */
  take(info: RequestInfo): number | undefined {
    const key = requestKey(info);
    const [claim, ...rest] = this.#byRequest.get(key) ?? [];
    if (rest.length > 0) this.#byRequest.set(key, rest);
    else this.#byRequest.delete(key);
    return claim;
  }
}

function requestKey(info: RequestInfo): string {
  return `${info.operation} ${info.method} ${info.path} #${info.attempt}`;
}
