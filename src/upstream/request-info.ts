import type { UpstreamError } from './errors.js';
import type { UpstreamOperation } from './operations.js';

/** One attempt about to be sent; `path` is relative to the base URL and never holds the key. */
export interface RequestInfo {
  operation: UpstreamOperation;
  method: 'GET';
  /** Path and query as sent, e.g. `/issuers/ISS%2F1/positions?status=all`. */
  path: string;
  /** 1 for the first try, 2 for the first retry, and so on. */
  attempt: number;
}

/** How one attempt ended: an HTTP status, or `network` / `timeout` when no response came. */
export interface ResponseInfo extends RequestInfo {
  status: number | 'network' | 'timeout';
  durationMs: number;
  /** Set when the attempt failed, including a 2xx whose body was rejected. */
  error?: UpstreamError;
}
