import { STATUS_CODES } from 'node:http';
import type { LimitWindow } from './rate-limiter.js';

/** An error body as the service sends it; the 429 body adds `limit` and `window`. */
export interface SandboxErrorBody {
  error: string;
  message: string;
  limit?: number;
  window?: LimitWindow;
}

/** 401: the message is the service's exact text. */
export const UNAUTHORIZED: SandboxErrorBody = {
  error: 'unauthorized',
  message: 'Invalid or missing API key.',
};

/** 403: the key works but the plan has no API access. */
export const FORBIDDEN: SandboxErrorBody = {
  error: 'forbidden',
  message: 'Your subscription does not include API access.',
};

/** 404 of the positions operation. */
export const ISSUER_NOT_FOUND: SandboxErrorBody = { error: 'not_found', message: 'Issuer not found.' };

/** 404 of a path the service does not have. */
export const ROUTE_NOT_FOUND: SandboxErrorBody = { error: 'not_found', message: 'Not found.' };

/** 405: both operations are GET only. */
export const METHOD_NOT_ALLOWED: SandboxErrorBody = {
  error: 'method_not_allowed',
  message: 'Method not allowed; use GET.',
};

/** 400 for a `status` other than `active` or `all`. */
export const INVALID_STATUS: SandboxErrorBody = {
  error: 'invalid_request',
  message: "Invalid status; allowed values are 'active' and 'all'.",
};

/** 400 for a path that is not valid percent-encoding. */
export const MALFORMED_PATH: SandboxErrorBody = {
  error: 'invalid_request',
  message: 'Malformed request path.',
};

/** The 429 body; the daily one says the daily request limit was reached. */
export function rateLimitBody(window: LimitWindow, limit: number): SandboxErrorBody {
  const message =
    window === 'day'
      ? `Daily request limit reached: ${limit} requests per day. Try again tomorrow.`
      : `Rate limit exceeded: ${limit} requests per minute.`;
  return { error: 'rate_limit_exceeded', message, limit, window };
}

const CODES: Record<number, SandboxErrorBody> = {
  400: { error: 'invalid_request', message: 'Invalid request.' },
  401: UNAUTHORIZED,
  403: FORBIDDEN,
  404: ROUTE_NOT_FOUND,
  405: METHOD_NOT_ALLOWED,
  500: { error: 'internal_error', message: 'Internal server error.' },
  502: { error: 'bad_gateway', message: 'Bad gateway.' },
  503: { error: 'service_unavailable', message: 'Service temporarily unavailable.' },
  504: { error: 'gateway_timeout', message: 'Gateway timeout.' },
};

/** The body the service sends with an error status (429 has its own, see `rateLimitBody`). */
export function errorBodyFor(status: number): SandboxErrorBody {
  return CODES[status] ?? { error: `http_${status}`, message: STATUS_CODES[status] ?? `HTTP ${status}` };
}
