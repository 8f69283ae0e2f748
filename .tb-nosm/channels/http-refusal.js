import { DeliveryError } from "./delivery-error.js";
const DEFAULT_RETRY_AFTER_MS = 1e3;
function httpRefusal(message, details) {
  const { status, code } = details;
  if (status === 429) {
    const retryAfterMs = details.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
    return new DeliveryError(message, {
      outcome: "rate-limit",
      status,
      ...code ? { code } : {},
      retryAfterMs
    });
  }
  const outcome = status >= 500 || status === 408 ? "retry" : "park";
  return new DeliveryError(message, { outcome, status, ...code ? { code } : {} });
}
export {
  httpRefusal
};
