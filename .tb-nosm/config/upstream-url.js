const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const LOOPBACK_NAMES = /* @__PURE__ */ new Set(["localhost", "localhost.", "[::1]"]);
function isLoopbackHost(hostname) {
  const host = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(host) || LOOPBACK_IPV4.test(host);
}
function exposesKeyInClear(baseUrl, allowInsecureHttp) {
  return !allowInsecureHttp && isPlainHttpToRemote(baseUrl);
}
function isPlainHttpToRemote(address) {
  if (!URL.canParse(address)) return false;
  const url = new URL(address);
  return url.protocol === "http:" && !isLoopbackHost(url.hostname);
}
const INSECURE_UPSTREAM_MESSAGE = "must be https:// (the API key would cross the network in clear); plain http:// is accepted for a loopback host (127.0.0.0/8, ::1, localhost) or with upstream.allowInsecureHttp: true";
export {
  INSECURE_UPSTREAM_MESSAGE,
  exposesKeyInClear,
  isLoopbackHost,
  isPlainHttpToRemote
};
