class InvalidMuteError extends Error {
  constructor(message, scope, target) {
    super(message);
    this.scope = scope;
    this.target = target;
  }
  scope;
  target;
  name = "InvalidMuteError";
}
function isInvalidMuteError(error) {
  return error instanceof InvalidMuteError;
}
export {
  InvalidMuteError,
  isInvalidMuteError
};
