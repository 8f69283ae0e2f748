import type { UpstreamOperation } from './operations.js';

/** Where an upstream error happened; `path` is relative to the base URL and never holds the key. */
export interface UpstreamErrorContext {
  operation: UpstreamOperation;
  method: 'GET';
  path: string;
  /** The issuer asked for, for the positions operation. */
  issuerId?: string;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** The `error` code of the response body, when it had one. */
  code?: string;
  cause?: unknown;
}

/** Base of every failure of the upstream client. */
export class UpstreamError extends Error {
  override readonly name: string = 'UpstreamError';
  readonly operation: UpstreamOperation;
  readonly method: 'GET';
  readonly path: string;
  readonly issuerId: string | undefined;
  readonly status: number | undefined;
  readonly code: string | undefined;

  constructor(message: string, context: UpstreamErrorContext) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.operation = context.operation;
    this.method = context.method;
    this.path = context.path;
    this.issuerId = context.issuerId;
    this.status = context.status;
    this.code = context.code;
  }
}

/** 400: the service rejected the request as invalid. */
export class InvalidRequestError extends UpstreamError {
  override readonly name = 'InvalidRequestError';
}

/** 401: the API key is missing or invalid; retrying only burns budget. */
export class UnauthorizedError extends UpstreamError {
  override readonly name = 'UnauthorizedError';
}

/** 403: the subscription does not include API access. */
export class NoApiAccessError extends UpstreamError {
  override readonly name = 'NoApiAccessError';
}

/** 404 from the positions operation: the issuer is unknown to the service. */
export class IssuerNotFoundError extends UpstreamError {
  override readonly name = 'IssuerNotFoundError';
}

/** Details a 429 carries besides the common context. */
export interface RateLimitDetails {
  /** The cap that was reached, from the body (1000 for the daily one). */
  limit?: number;
  /** The window that was exhausted, from the body: usually `minute` or `day`. */
  window?: string;
  /** From `Retry-After`, when the service sent a usable one. */
  retryAfterMs?: number;
}

/** 429: a rate limit of the plan was reached; nothing should be sent until it resets. */
export class RateLimitedError extends UpstreamError {
  override readonly name = 'RateLimitedError';
  readonly limit: number | undefined;
  readonly window: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, context: UpstreamErrorContext, details: RateLimitDetails) {
    super(message, context);
    this.limit = details.limit;
    this.window = details.window;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 5xx: the service failed; worth a retry. */
export class ServerError extends UpstreamError {
  override readonly name = 'ServerError';
}

/** Any other non-2xx status (3xx, 405, 404 from the issuer list, ...). */
export class UnexpectedStatusError extends UpstreamError {
  override readonly name = 'UnexpectedStatusError';
}

/** No response: connection refused or reset, DNS, TLS. */
export class UpstreamNetworkError extends UpstreamError {
  override readonly name = 'UpstreamNetworkError';
}

/** No complete response within `timeoutMs`. */
export class UpstreamTimeoutError extends UpstreamError {
  override readonly name = 'UpstreamTimeoutError';
  readonly timeoutMs: number;

  constructor(message: string, context: UpstreamErrorContext, timeoutMs: number) {
    super(message, context);
    this.timeoutMs = timeoutMs;
  }
}

/** A response body that is not JSON or does not match the schema; `summary` names the first issues. */
export class SchemaError extends UpstreamError {
  override readonly name = 'SchemaError';
  readonly summary: string;

  constructor(summary: string, context: UpstreamErrorContext) {
    super(`${context.method} ${context.path}: unexpected response body: ${summary}`, context);
    this.summary = summary;
  }
}

/** A response body larger than `maxBodyBytes`; it was not read to the end. */
export class BodyTooLargeError extends UpstreamError {
  override readonly name = 'BodyTooLargeError';
  readonly maxBodyBytes: number;

  constructor(context: UpstreamErrorContext, maxBodyBytes: number) {
    super(`${context.method} ${context.path}: response body exceeds ${maxBodyBytes} bytes`, context);
    this.maxBodyBytes = maxBodyBytes;
  }
}

/** Type guard for {@link UpstreamError} and all its subclasses. */
export function isUpstreamError(error: unknown): error is UpstreamError {
  return error instanceof UpstreamError;
}

/** Whether a retry may help: true only for 5xx, network errors and timeouts (never 4xx or bad bodies). */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof ServerError ||
    error instanceof UpstreamNetworkError ||
    error instanceof UpstreamTimeoutError
  );
}

/** Type guard for {@link RateLimitedError}. */
export function isRateLimitedError(error: unknown): error is RateLimitedError {
  return error instanceof RateLimitedError;
}

/** Type guard for {@link UnauthorizedError}. */
export function isUnauthorizedError(error: unknown): error is UnauthorizedError {
  return error instanceof UnauthorizedError;
}

/** Type guard for {@link NoApiAccessError}. */
export function isNoApiAccessError(error: unknown): error is NoApiAccessError {
  return error instanceof NoApiAccessError;
}

/** Type guard for {@link IssuerNotFoundError}. */
export function isIssuerNotFoundError(error: unknown): error is IssuerNotFoundError {
  return error instanceof IssuerNotFoundError;
}

/** Type guard for {@link SchemaError}. */
export function isSchemaError(error: unknown): error is SchemaError {
  return error instanceof SchemaError;
}
