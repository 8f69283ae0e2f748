import { STATUS_CODES } from "node:http";
const UNAUTHORIZED = {
  error: "unauthorized",
  message: "Invalid or missing API key."
};
const FORBIDDEN = {
  error: "forbidden",
  message: "Your subscription does not include API access."
};
const ISSUER_NOT_FOUND = { error: "not_found", message: "Issuer not found." };
const ROUTE_NOT_FOUND = { error: "not_found", message: "Not found." };
const METHOD_NOT_ALLOWED = {
  error: "method_not_allowed",
  message: "Method not allowed; use GET."
};
const INVALID_STATUS = {
  error: "invalid_request",
  message: "Invalid status; allowed values are 'active' and 'all'."
};
const MALFORMED_PATH = {
  error: "invalid_request",
  message: "Malformed request path."
};
function rateLimitBody(window, limit) {
  const message = window === "day" ? `Daily request limit reached: ${limit} requests per day. Try again tomorrow.` : `Rate limit exceeded: ${limit} requests per minute.`;
  return { error: "rate_limit_exceeded", message, limit, window };
}
const CODES = {
  400: { error: "invalid_request", message: "Invalid request." },
  401: UNAUTHORIZED,
  403: FORBIDDEN,
  404: ROUTE_NOT_FOUND,
  405: METHOD_NOT_ALLOWED,
  500: { error: "internal_error", message: "Internal server error." },
  502: { error: "bad_gateway", message: "Bad gateway." },
  503: { error: "service_unavailable", message: "Service temporarily unavailable." },
  504: { error: "gateway_timeout", message: "Gateway timeout." }
};
function errorBodyFor(status) {
  return CODES[status] ?? { error: `http_${status}`, message: STATUS_CODES[status] ?? `HTTP ${status}` };
}
export {
  FORBIDDEN,
  INVALID_STATUS,
  ISSUER_NOT_FOUND,
  MALFORMED_PATH,
  METHOD_NOT_ALLOWED,
  ROUTE_NOT_FOUND,
  UNAUTHORIZED,
  errorBodyFor,
  rateLimitBody
};
