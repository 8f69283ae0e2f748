import { z } from 'zod';
import { parseRetryAfter } from '../time/retry-after.js';
import {
  BodyTooLargeError,
  InvalidRequestError,
  IssuerNotFoundError,
  NoApiAccessError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  type UpstreamError,
  type UpstreamErrorContext,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from './errors.js';
import { type ErrorBody, errorBodySchema } from './schemas.js';

/** What a non-2xx response looked like, as far as the client needs. */
export interface FailedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes, or `undefined` when it could not be read whole. */
  body: Buffer | undefined;
}

/** Context shared by the classifiers: where the error happened and how to keep secrets out of text. */
export interface ClassifyContext {
  error: Omit<UpstreamErrorContext, 'status' | 'code' | 'cause'>;
  redact: (text: string) => string;
  /** Wall clock in epoch ms, for Retry-After HTTP-dates. */
  now: () => number;
}

const MAX_MESSAGE_CHARS = 500;
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);
const TOO_LARGE_CODE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

/** The typed error for a non-2xx response; error bodies that are not JSON or lack fields still classify. */
export function errorFromResponse(response: FailedResponse, ctx: ClassifyContext): UpstreamError {
  const { status } = response;
  const body = parseErrorBody(response.body);
  const context: UpstreamErrorContext = { ...ctx.error, status, code: body.error };
  const message = body.message
    ? ctx.redact(body.message).slice(0, MAX_MESSAGE_CHARS)
    : `${context.method} ${context.path} answered ${status}`;
  if (status === 400) return new InvalidRequestError(message, context);
  if (status === 401) return new UnauthorizedError(message, context);
  if (status === 403) return new NoApiAccessError(message, context);
  // A 404 from the issuer list means a wrong base URL, not a missing issuer.
  if (status === 404 && context.operation === 'positions') return new IssuerNotFoundError(message, context);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], ctx.now(), response.headers.date);
    return new RateLimitedError(message, context, { limit: body.limit, window: body.window, retryAfterMs });
  }
  if (status >= 500 && status <= 599) return new ServerError(message, context);
  return new UnexpectedStatusError(message, context);
}

/** The typed error for an attempt that got no usable response (thrown by the dispatcher or the body stream). */
export function errorFromFailure(
  cause: unknown,
  ctx: ClassifyContext,
  limits: { timedOut: boolean; timeoutMs: number; maxBodyBytes: number; status?: number },
): UpstreamError {
  const context: UpstreamErrorContext = { ...ctx.error, cause };
  const code = errorCode(cause);
  if (limits.timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    const message = `${context.method} ${context.path}: no response within ${limits.timeoutMs} ms`;
    return new UpstreamTimeoutError(message, context, limits.timeoutMs);
  }
  // undici's maxResponseSize fires while the body streams, so the status is known.
  if (code === TOO_LARGE_CODE)
    return new BodyTooLargeError({ ...context, status: limits.status }, limits.maxBodyBytes);
  const reason = cause instanceof Error ? ctx.redact(cause.message) : 'unknown failure';
  return new UpstreamNetworkError(`${context.method} ${context.path}: network error: ${reason}`, context);
}

// Each field on its own, so one field of an unexpected type does not hide the others.
function parseErrorBody(bytes: Buffer | undefined): ErrorBody {
  if (bytes === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return {};
  }
  const record = z.record(z.string(), z.unknown()).safeParse(parsed);
  if (!record.success) return {};
  const { shape } = errorBodySchema;
  return {
    error: shape.error.safeParse(record.data.error).data,
    message: shape.message.safeParse(record.data.message).data,
    limit: shape.limit.safeParse(record.data.limit).data,
    window: shape.window.safeParse(record.data.window).data,
  };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
