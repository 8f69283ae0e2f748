class UpstreamError extends Error {
  name = "UpstreamError";
  operation;
  method;
  path;
  issuerId;
  status;
  code;
  constructor(message, context) {
    super(message, context.cause === void 0 ? void 0 : { cause: context.cause });
    this.operation = context.operation;
    this.method = context.method;
    this.path = context.path;
    this.issuerId = context.issuerId;
    this.status = context.status;
    this.code = context.code;
  }
}
class InvalidRequestError extends UpstreamError {
  name = "InvalidRequestError";
}
class UnauthorizedError extends UpstreamError {
  name = "UnauthorizedError";
}
class NoApiAccessError extends UpstreamError {
  name = "NoApiAccessError";
}
class IssuerNotFoundError extends UpstreamError {
  name = "IssuerNotFoundError";
}
class RateLimitedError extends UpstreamError {
  name = "RateLimitedError";
  limit;
  window;
  retryAfterMs;
  constructor(message, context, details) {
    super(message, context);
    this.limit = details.limit;
    this.window = details.window;
    this.retryAfterMs = details.retryAfterMs;
  }
}
class ServerError extends UpstreamError {
  name = "ServerError";
}
class UnexpectedStatusError extends UpstreamError {
  name = "UnexpectedStatusError";
}
class UpstreamNetworkError extends UpstreamError {
  name = "UpstreamNetworkError";
}
class UpstreamTimeoutError extends UpstreamError {
  name = "UpstreamTimeoutError";
  timeoutMs;
  constructor(message, context, timeoutMs) {
    super(message, context);
    this.timeoutMs = timeoutMs;
  }
}
class SchemaError extends UpstreamError {
  name = "SchemaError";
  summary;
  constructor(summary, context) {
    super(`${context.method} ${context.path}: unexpected response body: ${summary}`, context);
    this.summary = summary;
  }
}
class BodyTooLargeError extends UpstreamError {
  name = "BodyTooLargeError";
  maxBodyBytes;
  constructor(context, maxBodyBytes) {
    super(`${context.method} ${context.path}: response body exceeds ${maxBodyBytes} bytes`, context);
    this.maxBodyBytes = maxBodyBytes;
  }
}
function isUpstreamError(error) {
  return error instanceof UpstreamError;
}
function isRetryable(error) {
  return error instanceof ServerError || error instanceof UpstreamNetworkError || error instanceof UpstreamTimeoutError;
}
function isRateLimitedError(error) {
  return error instanceof RateLimitedError;
}
function isUnauthorizedError(error) {
  return error instanceof UnauthorizedError;
}
function isNoApiAccessError(error) {
  return error instanceof NoApiAccessError;
}
function isIssuerNotFoundError(error) {
  return error instanceof IssuerNotFoundError;
}
function isSchemaError(error) {
  return error instanceof SchemaError;
}
export {
  BodyTooLargeError,
  InvalidRequestError,
  IssuerNotFoundError,
  NoApiAccessError,
  RateLimitedError,
  SchemaError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamError,
  UpstreamNetworkError,
  UpstreamTimeoutError,
  isIssuerNotFoundError,
  isNoApiAccessError,
  isRateLimitedError,
  isRetryable,
  isSchemaError,
  isUnauthorizedError,
  isUpstreamError
};
