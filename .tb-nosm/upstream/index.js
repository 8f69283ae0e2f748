import { backoffDelay } from "./backoff.js";
import { createUpstreamClient } from "./client.js";
import {
  BodyTooLargeError,
  InvalidRequestError,
  IssuerNotFoundError,
  isIssuerNotFoundError,
  isNoApiAccessError,
  isRateLimitedError,
  isRetryable,
  isSchemaError,
  isUnauthorizedError,
  isUpstreamError,
  NoApiAccessError,
  RateLimitedError,
  SchemaError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamError,
  UpstreamNetworkError,
  UpstreamTimeoutError
} from "./errors.js";
import { isNoUpstreamError, NoUpstreamError } from "./no-upstream-error.js";
import { encodePathSegment } from "./operations.js";
export * from "./schemas.js";
export {
  BodyTooLargeError,
  InvalidRequestError,
  IssuerNotFoundError,
  NoApiAccessError,
  NoUpstreamError,
  RateLimitedError,
  SchemaError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamError,
  UpstreamNetworkError,
  UpstreamTimeoutError,
  backoffDelay,
  createUpstreamClient,
  encodePathSegment,
  isIssuerNotFoundError,
  isNoApiAccessError,
  isNoUpstreamError,
  isRateLimitedError,
  isRetryable,
  isSchemaError,
  isUnauthorizedError,
  isUpstreamError
};
