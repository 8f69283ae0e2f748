class RegisterReadError extends Error {
  name = "RegisterReadError";
  reason;
  constructor(reason, message, options) {
    super(message, options);
    this.reason = reason;
  }
}
function isRegisterReadError(error) {
  return error instanceof RegisterReadError;
}
export {
  RegisterReadError,
  isRegisterReadError
};
