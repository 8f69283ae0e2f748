import type { Quirk } from './quirks.js';
import type { LimitWindow } from './rate-limiter.js';
import type { SandboxOperation } from './stats.js';

/** One misbehaviour to inject into matching requests (after authentication). */
export interface FaultSpec {
  /** Only this operation; default any of the two. */
  operation?: 'issuers' | 'positions';
  /** Only positions requests for this issuer. */
  issuerId?: string;
  /** Answer with this status; without `body`, an error status gets the service's error body for it. */
  status?: number;
  /** 'malformed': invalid JSON; 'schema': JSON that breaks the schema; any other value: sent as JSON. */
  body?: 'malformed' | 'schema' | unknown;
  /** Raw text to send instead of JSON (a proxy's HTML error page, say). */
  text?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Wait this long first; alone, the answer is then the normal one. */
  delayMs?: number;
  /** How many matching requests it applies to; default 1, Infinity allowed. */
  times?: number;
  /** Send a valid-looking JSON body of exactly this many bytes. */
  bytes?: number;
  /**
   * Reshape the normal 200 answer of a positions request (see {@link Quirk}); the fields above then
   * apply as usual. A quirk matches positions requests only, and leaves a non-200 answer (404 for an
   * unknown issuer, 400 for a bad `status`) unchanged, though that request still uses the fault once.
   */
  quirk?: Quirk;
}

/** Options of a rate-limit fault. */
export interface RateLimitFaultOptions {
  /**
   * Retry-After in seconds; unset: the seconds to the window's reset (unless the sandbox was started
   * with `retryAfterHeader: false`); null: no Retry-After header at all.
   */
  retryAfterSeconds?: number | null;
  /** How many requests get the 429; default 1, Infinity allowed. */
  times?: number;
}

/** Control over injected faults, as `sandbox.faults`. */
export interface Faults {
  inject(spec: FaultSpec): void;
  /** The next request(s) get the service's 429 for that window; see {@link RateLimitFaultOptions}. */
  rateLimit(window: LimitWindow, options?: RateLimitFaultOptions): void;
  clear(): void;
  /** Faults with uses left. */
  pending(): number;
}

/** A fault taken for one request. */
export interface ActiveFault {
  spec: FaultSpec;
  rateLimit?: { window: LimitWindow; retryAfterSeconds: number | null | undefined };
}

interface Queued extends ActiveFault {
  left: number;
}

/** The request a fault may apply to. */
export interface FaultTarget {
  operation: SandboxOperation;
  issuerId?: string;
}

function applies(spec: FaultSpec, target: FaultTarget): boolean {
  if (target.operation === 'other') return false;
  // A quirk means nothing to the issuer list: it must not spend its uses there.
  if (spec.quirk !== undefined && target.operation !== 'positions') return false;
  if (spec.operation !== undefined && spec.operation !== target.operation) return false;
  return (
    spec.issuerId === undefined || (target.operation === 'positions' && spec.issuerId === target.issuerId)
  );
}

/** Faults in injection order; the first that matches a request is used once. */
export class FaultQueue implements Faults {
  private queue: Queued[] = [];

  inject(spec: FaultSpec): void {
    if ((spec.times ?? 1) <= 0) return;
    this.queue.push({ spec: { ...spec }, left: spec.times ?? 1 });
  }

  rateLimit(window: LimitWindow, options: RateLimitFaultOptions = {}): void {
    if ((options.times ?? 1) <= 0) return;
    this.queue.push({
      spec: { status: 429 },
      rateLimit: { window, retryAfterSeconds: options.retryAfterSeconds },
      left: options.times ?? 1,
    });
  }

  clear(): void {
    this.queue = [];
  }

  pending(): number {
    return this.queue.length;
  }

  /** Takes one use of the first fault matching the request. */
  take(target: FaultTarget): ActiveFault | undefined {
    const found = this.queue.find((queued) => applies(queued.spec, target));
    if (!found) return undefined;
    found.left--;
    if (found.left <= 0) this.queue = this.queue.filter((queued) => queued !== found);
    return { spec: found.spec, ...(found.rateLimit ? { rateLimit: found.rateLimit } : {}) };
  }
}
