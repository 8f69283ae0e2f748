import type { IncomingMessage, ServerResponse } from 'node:http';
import { answer } from './answers.js';
import type { Delays } from './delays.js';
import { errorBodyFor, FORBIDDEN, rateLimitBody, UNAUTHORIZED } from './error-bodies.js';
import { faultReply } from './fault-reply.js';
import type { FaultQueue } from './faults.js';
import { quirkAnswer } from './quirks.js';
import type { FixedWindowLimiter } from './rate-limiter.js';
import { jsonReply, type Reply, sendReply } from './reply.js';
import { matchRoute } from './routes.js';
import type { Scenario } from './scenario.js';
import type { RequestLog } from './stats.js';

/** Everything a request is answered from. */
export interface HandlerDeps {
  scenario: Scenario;
  faults: FaultQueue;
  stats: RequestLog;
  limiter: FixedWindowLimiter;
  keys: { valid: ReadonlySet<string>; noApiAccess: ReadonlySet<string> };
  retryAfterHeader: boolean;
  now: () => number;
  delays: Delays;
}

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** The URL a client used, as a real service would build its `next` links: from the Host header. */
function absoluteUrl(req: IncomingMessage, path: string): string {
  const host = req.headers.host ?? `${req.socket.localAddress}:${req.socket.localPort}`;
  return `http://${host}${path}`;
}

async function handle(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const at = deps.now();
  const method = req.method ?? 'GET';
  // The raw path, not URL-normalised: an id's `%2F` must stay inside its segment.
  const target = (req.url ?? '/').split('#')[0] ?? '/';
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : target.slice(queryAt + 1));
  const route = matchRoute(path);
  const key = bearerToken(req.headers.authorization);
  const reply = (answered: Reply): Promise<void> => {
    const issuerId = route.operation === 'positions' ? { issuerId: route.issuerId } : {};
    deps.stats.record({
      at,
      key,
      method,
      path,
      operation: route.operation,
      ...issuerId,
      status: answered.status,
    });
    return sendReply(res, answered);
  };

  const { valid, noApiAccess } = deps.keys;
  if (key === null || (!valid.has(key) && !noApiAccess.has(key))) {
    return reply(jsonReply(401, UNAUTHORIZED, { 'www-authenticate': 'Bearer' }));
  }
  if (noApiAccess.has(key)) return reply(jsonReply(403, FORBIDDEN));
  const hit = deps.limiter.hit(key, at);
  if (hit) {
    const headers: Record<string, string> = deps.retryAfterHeader
      ? { 'retry-after': String(hit.retryAfterSeconds) }
      : {};
    return reply(jsonReply(429, rateLimitBody(hit.window, hit.limit), headers));
  }
  const fault = route.operation === 'other' ? undefined : deps.faults.take(route);
  if (fault?.spec.delayMs) await deps.delays.wait(fault.spec.delayMs);
  const normal = answer(deps.scenario, route, method, query);
  if (!fault || route.operation === 'other')
    return reply(jsonReply(normal.status, normal.body, normal.headers));
  const quirk = fault.spec.quirk;
  const shaped =
    quirk && route.operation === 'positions'
      ? quirkAnswer(quirk, normal, {
          scenario: deps.scenario,
          issuerId: route.issuerId,
          query,
          url: absoluteUrl(req, path),
        })
      : normal;
  const context = {
    operation: route.operation,
    limiter: deps.limiter,
    retryAfterHeader: deps.retryAfterHeader,
    now: at,
  };
  return reply(faultReply(fault, shaped, context));
}

/** The request listener of the sandbox server. */
export function createHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else void sendReply(res, jsonReply(500, errorBodyFor(500)));
    });
  };
}
