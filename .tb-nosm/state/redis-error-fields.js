const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi;
function redactUrlCredentials(text) {
  return text.replace(URL_CREDENTIALS, "$1[redacted]@");
}
function redisErrorFields(error) {
  if (!(error instanceof Error)) return { type: typeof error, message: redactUrlCredentials(String(error)) };
  const message = redactUrlCredentials(error.message.split("\n")[0] ?? "");
  const code = "code" in error && typeof error.code === "string" ? error.code : void 0;
  return code === void 0 ? { type: error.name, message } : { type: error.name, message, code };
}
const CONNECTION_CODES = /* @__PURE__ */ new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN"
]);
const CONNECTION_MESSAGES = [
  /^Connection is closed\.?$/,
  /^connect E[A-Z]+/,
  /^Stream isn't writeable/,
  /^All sentinels are unreachable/,
  /^Failed to refresh slots cache/,
  /^CLUSTERDOWN /,
  /^UNBLOCKED /
];
function isConnectionError(error) {
  if (!(error instanceof Error)) return false;
  if (error.name === "MaxRetriesPerRequestError") return true;
  if ("code" in error && typeof error.code === "string" && CONNECTION_CODES.has(error.code)) return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}
export {
  isConnectionError,
  redactUrlCredentials,
  redisErrorFields
};
