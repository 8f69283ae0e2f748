class DeliveryError extends Error {
  name = "DeliveryError";
  outcome;
  status;
  code;
  retryAfterMs;
  constructor(message, details) {
    super(message, { cause: details.cause });
    this.outcome = details.outcome;
    this.status = details.status;
    this.code = details.code;
    this.retryAfterMs = details.retryAfterMs;
  }
}
function isDeliveryError(error) {
  return error instanceof DeliveryError;
}
export {
  DeliveryError,
  isDeliveryError
};
