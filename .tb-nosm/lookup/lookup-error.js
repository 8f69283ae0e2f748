class LookupError extends Error {
  name = "LookupError";
}
function isLookupError(error) {
  return error instanceof LookupError;
}
export {
  LookupError,
  isLookupError
};
