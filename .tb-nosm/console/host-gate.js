import { hostAllowed, hostRules } from "./host-rules.js";
const REMEMBERED_HOSTS = 256;
function shown(host) {
  return host === void 0 ? "(none)" : host.slice(0, 100);
}
function createHostGate(http, logger) {
  const logged = /* @__PURE__ */ new Set();
  return {
    admits(request) {
      const { host } = request.headers;
      if (hostAllowed(hostRules(http()), host)) return true;
      const name = shown(host);
      if (!logged.has(name) && logged.size < REMEMBERED_HOSTS) {
        logged.add(name);
        logger.warn(
          { host: name, path: (request.url ?? "/").split("?")[0]?.slice(0, 100) },
          "refused a request for a host name this endpoint does not serve (421; a DNS-rebinding page, or a name to add to http.allowedHosts); further requests for it are not logged"
        );
      }
      return false;
    }
  };
}
export {
  createHostGate
};
