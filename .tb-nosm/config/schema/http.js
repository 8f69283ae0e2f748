import { isIP } from "node:net";
import { z } from "zod";
import { isLoopbackHost } from "../upstream-url.js";
import { duration, secret } from "./value-types.js";
const portNumber = z.union([z.number(), z.string().regex(/^\d+$/, "must be a port number").transform(Number)]).pipe(z.number().int().min(0).max(65535));
const flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((text) => text === "true")], {
  error: "must be true or false"
});
const TOKEN_MIN = 32;
const TOKEN_DISTINCT = 8;
const consoleToken = z.string().refine(
  (token) => token.length >= TOKEN_MIN && new Set(token).size >= TOKEN_DISTINCT,
  `must be at least ${TOKEN_MIN} random characters (e.g. openssl rand -base64 32)`
).pipe(secret);
const optionalToken = z.preprocess((value) => value === "" ? void 0 : value, consoleToken.optional()).optional();
const authSchema = z.strictObject({
  token: optionalToken.describe(
    "Token that opens the web console (sign-in form or `Authorization: Bearer`): at least 32 random characters. Required while the console is on and it is published: `http.host` not loopback, `http.publicUrl` set, or an `http.allowedHosts` entry that is not loopback. Empty counts as unset. `/healthz`, `/readyz` and `/metrics` never ask for it."
  ),
  sessionTtl: duration.refine((ms) => ms >= 6e4, "must be at least 1m").prefault("12h").describe(
    "How long a console sign-in lasts: a random session id kept in Redis for this long, ended at once by signing out or by a change of `http.auth.token`."
  ),
  signInAttempts: z.number().int().positive().default(10).describe(
    "Sign-in attempts one client address may make per `http.auth.signInWindow` (right or wrong), counting `Authorization: Bearer` requests with a wrong token; more are answered 429. Behind `http.trustedProxies` the client address is the one the proxy forwards."
  ),
  signInWindow: duration.refine((ms) => ms >= 1e3, "must be at least 1s").prefault("15m").describe("The window `http.auth.signInAttempts` counts in, from an address's first attempt.")
}).describe("Access to the web console.");
const HOST_ENTRY = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
function isLoopbackBind(host) {
  return isLoopbackHost(host) || host === "::1";
}
function publishedAt(http) {
  if (!isLoopbackBind(http.host)) return `on ${http.host} (not loopback)`;
  if (http.publicUrl !== void 0) return `at http.publicUrl ${http.publicUrl}`;
  const remote = http.allowedHosts.find((entry) => !isLoopbackHost(entry.replace(/:\d+$/, "")));
  return remote === void 0 ? void 0 : `to http.allowedHosts ${remote} (not loopback)`;
}
const httpSchema = z.strictObject({
  port: portNumber.optional().describe("Port; the endpoint is off when unset."),
  host: z.string().default("127.0.0.1").describe(
    "Interface to bind. Loopback by default; any other address (e.g. `0.0.0.0` in a container) needs `http.auth.token` while the console is on."
  ),
  console: flag.default(true).describe(
    "Serve the web console (overview, issuers, holders, events, deliveries, mutes) beside the probes."
  ),
  auth: authSchema.prefault({}),
  allowedHosts: z.array(
    z.string().refine(
      (entry) => HOST_ENTRY.test(entry),
      "must be a host name or address, optionally with :port (no scheme, no path)"
    )
  ).default([]).describe(
    "Host names the endpoint answers to besides loopback (127.0.0.0/8, localhost, [::1]), IP addresses and the host of `http.publicUrl`: e.g. `shortwatch.example.com` (any port) or `shortwatch:9464` (that port only). A request for any other `Host` is answered 421 (DNS rebinding), except `/healthz`; a console POST whose `Origin` (or `Referer`) names another host is refused 403."
  ),
  trustedProxies: z.array(z.string().refine((entry) => isIP(entry) !== 0, "must be an IP address")).default([]).describe(
    "Addresses of the reverse proxies in front of the endpoint (e.g. `127.0.0.1`). A request from one of them is taken to come from the last address its proxy appended to `X-Forwarded-For`, which the sign-in throttle counts by; from any other address the header is ignored."
  ),
  publicUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional().describe(
    "The URL people open the console at, behind a reverse proxy (e.g. `https://shortwatch.example.com/`): its host is allowed like `http.allowedHosts`, and when it is https the console's cookies are `Secure`."
  )
}).superRefine((http, ctx) => {
  if (http.port === void 0 || !http.console || http.auth.token !== void 0) return;
  const published = publishedAt(http);
  if (published === void 0) return;
  ctx.addIssue({
    code: "custom",
    path: ["auth", "token"],
    message: `is required to serve the console ${published}: set a token, or set http.console: false`
  });
}).describe("HTTP endpoint for the web console, /healthz, /readyz and /metrics.");
export {
  httpSchema,
  isLoopbackBind
};
