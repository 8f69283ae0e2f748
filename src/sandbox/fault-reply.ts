import type { Answer } from './answers.js';
import { errorBodyFor, ISSUER_NOT_FOUND, rateLimitBody } from './error-bodies.js';
import type { ActiveFault } from './faults.js';
import type { FixedWindowLimiter } from './rate-limiter.js';
import { jsonReply, type Reply } from './reply.js';
import { schemaBreaking } from './schema-breaking.js';

/** What a fault's reply depends on besides the fault. */
export interface FaultContext {
  operation: 'issuers' | 'positions';
  limiter: FixedWindowLimiter;
  retryAfterHeader: boolean;
  now: number;
}

/** A proper prefix of a JSON object text is never valid JSON. */
function truncated(normal: Answer): string {
  const text = JSON.stringify(normal.body);
  return text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
}

function rateLimited(fault: ActiveFault, context: FaultContext): Reply | undefined {
  if (!fault.rateLimit) return undefined;
  const { window, retryAfterSeconds } = fault.rateLimit;
  const body = rateLimitBody(window, context.limiter.limit(window));
  // null: this fault sends no Retry-After, whatever the sandbox's own 429s do.
  const retry =
    retryAfterSeconds === null
      ? undefined
      : (retryAfterSeconds ??
        (context.retryAfterHeader ? context.limiter.secondsToReset(window, context.now) : undefined));
  return jsonReply(429, body, {
    ...(retry === undefined ? {} : { 'retry-after': String(retry) }),
    ...fault.spec.headers,
  });
}

/** A 404 of the positions operation says the issuer is not found, as the service's own does. */
function errorBody(status: number, operation: FaultContext['operation']) {
  return status === 404 && operation === 'positions' ? ISSUER_NOT_FOUND : errorBodyFor(status);
}

/** The reply a fault turns the normal answer into. */
export function faultReply(fault: ActiveFault, normal: Answer, context: FaultContext): Reply {
  const limited = rateLimited(fault, context);
  if (limited) return limited;
  const { spec } = fault;
  const headers = spec.headers ?? {};
  const status = spec.status ?? 200;
  if (spec.bytes !== undefined) {
    return {
      status,
      headers: { 'content-type': 'application/json', ...headers },
      body: { bytes: spec.bytes, operation: context.operation },
    };
  }
  if (spec.text !== undefined) {
    return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body: spec.text };
  }
  if (spec.body === 'malformed') {
    return { status, headers: { 'content-type': 'application/json', ...headers }, body: truncated(normal) };
  }
  if (spec.body === 'schema') return jsonReply(status, schemaBreaking(normal, context.operation), headers);
  if (spec.body !== undefined) return jsonReply(status, spec.body, headers);
  if (spec.status === 429) {
    return jsonReply(429, rateLimitBody('minute', context.limiter.limit('minute')), headers);
  }
  if (spec.status !== undefined && spec.status >= 400)
    return jsonReply(spec.status, errorBody(spec.status, context.operation), headers);
  return jsonReply(spec.status ?? normal.status, normal.body, { ...normal.headers, ...headers });
}
