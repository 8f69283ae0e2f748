import { answer } from "./answers.js";
import { errorBodyFor, FORBIDDEN, rateLimitBody, UNAUTHORIZED } from "./error-bodies.js";
import { faultReply } from "./fault-reply.js";
import { quirkAnswer } from "./quirks.js";
import { jsonReply, sendReply } from "./reply.js";
import { matchRoute } from "./routes.js";
function bearerToken(header) {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}
function absoluteUrl(req, path) {
  const host = req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`;
  return `http://${host}${path}`;
}
async function handle(deps, req, res) {
  const at = deps.now();
  const method = req.method ?? "GET";
  const target = (req.url ?? "/").split("#")[0] ?? "/";
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? "" : target.slice(queryAt + 1));
  const route = matchRoute(path);
  const key = bearerToken(req.headers.authorization);
  const reply = (answered) => {
    const issuerId = route.operation === "positions" ? { issuerId: route.issuerId } : {};
    deps.stats.record({
      at,
      key,
      method,
      path,
      operation: route.operation,
      ...issuerId,
      status: answered.status
    });
    return sendReply(res, answered);
  };
  const { valid, noApiAccess } = deps.keys;
  if (key === null || !valid.has(key) && !noApiAccess.has(key)) {
    return reply(jsonReply(401, UNAUTHORIZED, { "www-authenticate": "Bearer" }));
  }
  if (noApiAccess.has(key)) return reply(jsonReply(403, FORBIDDEN));
  const hit = deps.limiter.hit(key, at);
  if (hit) {
    const headers = deps.retryAfterHeader ? { "retry-after": String(hit.retryAfterSeconds) } : {};
    return reply(jsonReply(429, rateLimitBody(hit.window, hit.limit), headers));
  }
  const fault = route.operation === "other" ? void 0 : deps.faults.take(route);
  if (fault?.spec.delayMs) await deps.delays.wait(fault.spec.delayMs);
  const normal = answer(deps.scenario, route, method, query);
  if (!fault || route.operation === "other")
    return reply(jsonReply(normal.status, normal.body, normal.headers));
  const quirk = fault.spec.quirk;
  const shaped = quirk && route.operation === "positions" ? quirkAnswer(quirk, normal, {
    scenario: deps.scenario,
    issuerId: route.issuerId,
    query,
    url: absoluteUrl(req, path)
  }) : normal;
  const context = {
    operation: route.operation,
    limiter: deps.limiter,
    retryAfterHeader: deps.retryAfterHeader,
    now: at
  };
  return reply(faultReply(fault, shaped, context));
}
function createHandler(deps) {
  return (req, res) => {
    handle(deps, req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else void sendReply(res, jsonReply(500, errorBodyFor(500)));
    });
  };
}
export {
  bearerToken,
  createHandler
};
