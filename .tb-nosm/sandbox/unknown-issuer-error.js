class UnknownIssuerError extends Error {
  constructor(issuerId) {
    super(`unknown issuer ${JSON.stringify(issuerId)}`);
    this.issuerId = issuerId;
  }
  issuerId;
  name = "UnknownIssuerError";
}
function isUnknownIssuerError(error) {
  return error instanceof UnknownIssuerError;
}
export {
  UnknownIssuerError,
  isUnknownIssuerError
};
