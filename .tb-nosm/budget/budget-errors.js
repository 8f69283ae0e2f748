class BudgetExhaustedError extends Error {
  constructor(reason, retryAt) {
    super(`rate budget refused a request (${reason}); next token at ${new Date(retryAt).toISOString()}`);
    this.reason = reason;
    this.retryAt = retryAt;
  }
  reason;
  retryAt;
  name = "BudgetExhaustedError";
}
function isBudgetExhaustedError(error) {
  return error instanceof BudgetExhaustedError;
}
class AccessRevokedError extends Error {
  constructor(state, since) {
    super(
      `upstream access revoked (${state}) since ${new Date(since).toISOString()}; requests are held back`
    );
    this.state = state;
    this.since = since;
  }
  state;
  since;
  name = "AccessRevokedError";
}
function isAccessRevokedError(error) {
  return error instanceof AccessRevokedError;
}
export {
  AccessRevokedError,
  BudgetExhaustedError,
  isAccessRevokedError,
  isBudgetExhaustedError
};
