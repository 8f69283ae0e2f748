export { backoffDelay } from './backoff.js';
export { createUpstreamClient, type UpstreamClient, type UpstreamClientOptions } from './client.js';
export {
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
  type RateLimitDetails,
  RateLimitedError,
  SchemaError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamError,
  type UpstreamErrorContext,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from './errors.js';
export { isNoUpstreamError, NoUpstreamError } from './no-upstream-error.js';
export { encodePathSegment, type UpstreamOperation } from './operations.js';
export type { RequestInfo, ResponseInfo } from './request-info.js';
export * from './schemas.js';
