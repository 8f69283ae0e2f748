import { z } from "zod";
import { parseRetryAfter } from "../time/retry-after.js";
import {
  BodyTooLargeError,
  InvalidRequestError,
  IssuerNotFoundError,
  NoApiAccessError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  UpstreamNetworkError,
  UpstreamTimeoutError
} from "./errors.js";
import { errorBodySchema } from "./schemas.js";
const MAX_MESSAGE_CHARS = 500;
const TIMEOUT_CODES = /* @__PURE__ */ new Set([
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "ETIMEDOUT"
]);
const TOO_LARGE_CODE = "UND_ERR_RES_EXCEEDED_MAX_SIZE";
function errorFromResponse(response, ctx) {
  const { status } = response;
  const body = parseErrorBody(response.body);
  const context = { ...ctx.error, status, code: body.error };
  const message = body.message ? ctx.redact(body.message).slice(0, MAX_MESSAGE_CHARS) : `${context.method} ${context.path} answered ${status}`;
  if (status === 400) return new InvalidRequestError(message, context);
  if (status === 401) return new UnauthorizedError(message, context);
  if (status === 403) return new NoApiAccessError(message, context);
  if (status === 404 && context.operation === "positions") return new IssuerNotFoundError(message, context);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers["retry-after"], ctx.now(), response.headers.date);
    return new RateLimitedError(message, context, { limit: body.limit, window: body.window, retryAfterMs });
  }
  if (status >= 500 && status <= 599) return new ServerError(message, context);
  return new UnexpectedStatusError(message, context);
}
function errorFromFailure(cause, ctx, limits) {
  const context = { ...ctx.error, cause };
  const code = errorCode(cause);
  if (limits.timedOut || code !== void 0 && TIMEOUT_CODES.has(code)) {
    const message = `${context.method} ${context.path}: no response within ${limits.timeoutMs} ms`;
    return new UpstreamTimeoutError(message, context, limits.timeoutMs);
  }
  if (code === TOO_LARGE_CODE)
    return new BodyTooLargeError({ ...context, status: limits.status }, limits.maxBodyBytes);
  const reason = cause instanceof Error ? ctx.redact(cause.message) : "unknown failure";
  return new UpstreamNetworkError(`${context.method} ${context.path}: network error: ${reason}`, context);
}
function parseErrorBody(bytes) {
  if (bytes === void 0) return {};
  let parsed;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
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
    window: shape.window.safeParse(record.data.window).data
  };
}
function errorCode(error) {
  if (typeof error !== "object" || error === null || !("code" in error)) return void 0;
  return typeof error.code === "string" ? error.code : void 0;
}
export {
  errorFromFailure,
  errorFromResponse
};
