import { isIP } from "node:net";
import { isLoopbackHost } from "../config/upstream-url.js";
const HOST_TEXT = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
function parseUrlHost(url) {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return { hostname: url.hostname.toLowerCase(), port, host: url.host.toLowerCase() };
}
function parseHostHeader(text) {
  if (text === void 0 || !HOST_TEXT.test(text)) return void 0;
  try {
    return parseUrlHost(new URL(`http://${text}`));
  } catch {
    return void 0;
  }
}
function hostRules(http) {
  const entries = [];
  for (const text of http.allowedHosts) {
    const parsed = parseHostHeader(text);
    if (parsed)
      entries.push({ hostname: parsed.hostname, port: /:\d+$/.test(text) ? parsed.port : void 0 });
  }
  if (http.publicUrl !== void 0 && URL.canParse(http.publicUrl)) {
    const url = new URL(http.publicUrl);
    entries.push({ hostname: url.hostname.toLowerCase(), port: url.port === "" ? void 0 : url.port });
  }
  return { entries };
}
function configured(rules, at) {
  return rules.entries.some(
    (e) => e.hostname === at.hostname && (e.port === void 0 || e.port === at.port)
  );
}
function isAddress(hostname) {
  return isIP(hostname.replace(/^\[(.*)\]$/, "$1")) !== 0;
}
function hostAllowed(rules, hostHeader) {
  const at = parseHostHeader(hostHeader);
  return at !== void 0 && (isLoopbackHost(at.hostname) || isAddress(at.hostname) || configured(rules, at));
}
function sourceOf(origin, referer) {
  const text = origin ?? referer;
  if (text === void 0 || !URL.canParse(text)) return void 0;
  const url = new URL(text);
  return url.protocol === "http:" || url.protocol === "https:" ? parseUrlHost(url) : void 0;
}
function postSourceAllowed(rules, headers) {
  const from = sourceOf(headers.origin, headers.referer);
  if (from === void 0 || !hostAllowed(rules, headers.host)) return false;
  return from.host === parseHostHeader(headers.host)?.host || configured(rules, from);
}
export {
  hostAllowed,
  hostRules,
  parseHostHeader,
  postSourceAllowed
};
