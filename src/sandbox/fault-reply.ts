import type { Answer } from './answers.js';
import { errorBodyFor, rateLimitBody } from './error-bodies.js';
import type { ActiveFault } from './faults.js';
import type { FixedWindowLimiter } from './rate-limiter.js';
import { jsonReply, type Reply } from './reply.js';

/** What a fault's reply depends on besides the fault. */
export interface FaultContext {
  operation: 'issuers' | 'positions';
  limiter: FixedWindowLimiter;
  retryAfterHeader: boolean;
  now: number;
}

const BAD_ROWS = {
  issuers: { svc_issuer_id: 4711, name: null },
  positions: { date: '2026-01-05', value: '0.51', position_holder: 'Schema Breaker LLP' },
};

/** The normal body with its types broken: ids as numbers, values as strings; never a valid body. */
function schemaBreaking(normal: Answer, operation: FaultContext['operation']): unknown {
  if (normal.status !== 200) return { data: 'unavailable', last_updated: 0 };
  const text = JSON.stringify(normal.body, (key, value: unknown) => {
    if (key === 'data' && Array.isArray(value) && value.length === 0) return [BAD_ROWS[operation]];
    if (key === 'value' && typeof value === 'number') return String(value);
    if (key === 'svc_issuer_id' && typeof value === 'string' && operation === 'issuers') return value.length;
    return value;
  });
  return JSON.parse(text);
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
  const retry =
    retryAfterSeconds ??
    (context.retryAfterHeader ? context.limiter.secondsToReset(window, context.now) : undefined);
  return jsonReply(429, body, {
    ...(retry === undefined ? {} : { 'retry-after': String(retry) }),
    ...fault.spec.headers,
  });
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
    return jsonReply(spec.status, errorBodyFor(spec.status), headers);
  return jsonReply(spec.status ?? normal.status, normal.body, { ...normal.headers, ...headers });
}
