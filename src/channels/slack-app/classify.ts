import { parseRetryAfter } from '../../time/retry-after.js';
import { DeliveryError } from '../delivery-error.js';
import { httpRefusal } from '../http-refusal.js';
import { isUnreachableUrl } from '../unreachable-host.js';
import type { WebApiAnswer } from './web-api.js';

// Error codes a later attempt can meet differently: Slack's own trouble, not the request's.
const RETRYABLE = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);
const MAX_CODE_CHARS = 100;

/**
 * A Web API answer that is not `ok` as a DeliveryError: an HTTP refusal as {@link httpRefusal} says (429
 * pauses the channel for its Retry-After); `ratelimited` in a 200 pauses too; Slack's own failures retry;
 * every other error (`invalid_auth`, `missing_scope`, `channel_not_found`, `not_in_channel`,
 * `invalid_blocks`, …) parks, as resending cannot fix it.
 */
export function classifyWebApiAnswer(
  answer: WebApiAnswer,
  ctx: { method: string; where: string; nowMs: number },
): DeliveryError {
  const code = (answer.body?.error ?? `http_${answer.status}`).slice(0, MAX_CODE_CHARS);
  const message = `Slack ${ctx.method} answered ${answer.status} ${code}${ctx.where}`;
  const retryAfterMs = parseRetryAfter(answer.retryAfter, ctx.nowMs, answer.date);
  if (answer.status !== 200) return httpRefusal(message, { status: answer.status, code, retryAfterMs });
  if (code === 'ratelimited') return httpRefusal(message, { status: 429, code, retryAfterMs });
  return new DeliveryError(message, { outcome: RETRYABLE.has(code) ? 'retry' : 'park', status: 200, code });
}

/** A call that got no answer: an unreachable host parks; a timeout or a dropped connection retries. */
export function classifyWebApiFailure(error: unknown, ctx: { method: string; where: string }): DeliveryError {
  const code = error instanceof Error && 'code' in error ? String(error.code) : 'network_error';
  // Only the code: nothing of the request (its bearer token) is ever echoed.
  return new DeliveryError(`Slack ${ctx.method} request failed: ${code}${ctx.where}`, {
    outcome: isUnreachableUrl(code) ? 'park' : 'retry',
    code,
  });
}
