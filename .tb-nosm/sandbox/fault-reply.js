import { errorBodyFor, ISSUER_NOT_FOUND, rateLimitBody } from "./error-bodies.js";
import { jsonReply } from "./reply.js";
import { schemaBreaking } from "./schema-breaking.js";
function truncated(normal) {
  const text = JSON.stringify(normal.body);
  return text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
}
function rateLimited(fault, context) {
  if (!fault.rateLimit) return void 0;
  const { window, retryAfterSeconds } = fault.rateLimit;
  const body = rateLimitBody(window, context.limiter.limit(window));
  const retry = retryAfterSeconds === null ? void 0 : retryAfterSeconds ?? (context.retryAfterHeader ? context.limiter.secondsToReset(window, context.now) : void 0);
  return jsonReply(429, body, {
    ...retry === void 0 ? {} : { "retry-after": String(retry) },
    ...fault.spec.headers
  });
}
function errorBody(status, operation) {
  return status === 404 && operation === "positions" ? ISSUER_NOT_FOUND : errorBodyFor(status);
}
function faultReply(fault, normal, context) {
  const limited = rateLimited(fault, context);
  if (limited) return limited;
  const { spec } = fault;
  const headers = spec.headers ?? {};
  const status = spec.status ?? 200;
  if (spec.bytes !== void 0) {
    return {
      status,
      headers: { "content-type": "application/json", ...headers },
      body: { bytes: spec.bytes, operation: context.operation }
    };
  }
  if (spec.text !== void 0) {
    return { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers }, body: spec.text };
  }
  if (spec.body === "malformed") {
    return { status, headers: { "content-type": "application/json", ...headers }, body: truncated(normal) };
  }
  if (spec.body === "schema") return jsonReply(status, schemaBreaking(normal, context.operation), headers);
  if (spec.body !== void 0) return jsonReply(status, spec.body, headers);
  if (spec.status === 429) {
    return jsonReply(429, rateLimitBody("minute", context.limiter.limit("minute")), headers);
  }
  if (spec.status !== void 0 && spec.status >= 400)
    return jsonReply(spec.status, errorBody(spec.status, context.operation), headers);
  return jsonReply(spec.status ?? normal.status, normal.body, { ...normal.headers, ...headers });
}
export {
  faultReply
};
