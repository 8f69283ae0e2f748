import { z } from 'zod';
import { parseRetryAfter } from '../../time/retry-after.js';
import { DeliveryError } from '../delivery-error.js';
import { httpRefusal } from '../http-refusal.js';
import { isUnreachableUrl } from '../unreachable-host.js';

/** A Teams answer other than 2xx: its status, its `Retry-After` and `Date` headers, and a bit of its body. */
export interface TeamsAnswer {
  status: number;
  retryAfter: string | string[] | undefined;
  date: string | string[] | undefined;
  body: string;
}

/** What the sender knows besides the answer: the time, the part, and what to hide. */
export interface AnswerContext {
  nowMs: number;
  /** ` (part 2/3)` when the message was split, else empty. */
  where: string;
  /** Replaces secrets (the URL, its path and its `sig=`) in text that came from outside. */
  redact: (text: string) => string;
}

const MAX_CODE_CHARS = 100;

// Workflows (Logic Apps) errors: `{"error":{"code":"…","message":"…"}}`; the message may quote the request.
const errorBody = z.object({ error: z.object({ code: z.string() }) });

/** The error code of a Workflows error body, else `http_<status>`; never longer than a short word. */
function errorCode(answer: TeamsAnswer, redact: (text: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    parsed = undefined;
  }
  const code = errorBody.safeParse(parsed).data?.error.code;
  return code ? redact(code).slice(0, MAX_CODE_CHARS) : `http_${answer.status}`;
}

/**
 * A refused request as a DeliveryError: 429 pauses the channel for Retry-After; 408 and 5xx retry with
 * backoff; any other status (400 a card Teams refuses, 401/403 a bad signature, 404 a deleted flow) parks.
 * A 413 reaches here only for a part of one event (the sender splits larger ones first).
 */
export function classifyTeamsAnswer(answer: TeamsAnswer, ctx: AnswerContext): DeliveryError {
  const { status } = answer;
  const code = errorCode(answer, ctx.redact);
  const retryAfterMs = parseRetryAfter(answer.retryAfter, ctx.nowMs, answer.date);
  return httpRefusal(`Teams webhook answered ${status} ${code}${ctx.where}`, { status, code, retryAfterMs });
}

/** A request that got no answer: an unreachable host parks; a timeout or a dropped connection retries. */
export function classifyTeamsFailure(
  error: unknown,
  ctx: { where: string; timeoutMs: number },
): DeliveryError {
  const code = error instanceof Error && 'code' in error ? String(error.code) : 'network_error';
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new DeliveryError(`Teams webhook gave no response within ${ctx.timeoutMs} ms${ctx.where}`, {
      outcome: 'retry',
      code: 'timeout',
    });
  }
  // Only the code: undici's messages may quote the URL, whose `sig=` is the secret.
  return new DeliveryError(`Teams webhook request failed: ${code}${ctx.where}`, {
    outcome: isUnreachableUrl(code) ? 'park' : 'retry',
    code,
  });
}
