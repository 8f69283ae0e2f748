import { IncomingWebhookHTTPError, IncomingWebhookRequestError } from '@slack/webhook';
import { z } from 'zod';
import { parseRetryAfter } from '../../time/retry-after.js';
import { DeliveryError } from '../delivery-error.js';
import { httpRefusal } from '../http-refusal.js';
import { isUnreachableUrl } from '../unreachable-host.js';

/** What the sender knows besides the error: the response's Retry-After, the timeout, and what to hide. */
export interface FailureContext {
  /** The `Retry-After` header of the failed response, recorded by our fetch. */
  retryAfter: string | null;
  /** The response's `Date` header: an HTTP-date Retry-After is measured from it (the server's clock). */
  date: string | null;
  /** When the answer came, by the sender's clock. */
  nowMs: number;
  timeoutMs: number;
  /** ` (part 2/3)` when the message was split, else empty. */
  where: string;
  /** Replaces secrets (the webhook URL and its path) in text that came from outside. */
  redact: (text: string) => string;
}

const MAX_CODE_CHARS = 100;

const causeWithCode = z.object({ code: z.string() });

/** The error code behind a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`), when there is one. */
function networkCode(error: Error): string | undefined {
  const own = causeWithCode.safeParse(error);
  if (own.success) return own.data.code;
  const cause = causeWithCode.safeParse(error.cause);
  return cause.success ? cause.data.code : undefined;
}

function fromHttpError(error: IncomingWebhookHTTPError, ctx: FailureContext, where: string): DeliveryError {
  const status = error.statusCode;
  // Slack's error bodies are one word (`no_service`); a proxy's HTML page is cut and cleaned.
  const body = ctx.redact(error.body.trim()).slice(0, MAX_CODE_CHARS);
  const code = body || `http_${status}`;
  const retryAfterMs = parseRetryAfter(ctx.retryAfter ?? undefined, ctx.nowMs, ctx.date ?? undefined);
  return httpRefusal(`Slack webhook answered ${status} ${code}${where}`, { status, code, retryAfterMs });
}

/**
 * A failed webhook send as a DeliveryError: an HTTP refusal as {@link httpRefusal} says, transport
 * failures retry (an unreachable host parks). The library's own messages may name the URL, so none is kept, and no cause is attached.
 */
export function classifySlackFailure(error: unknown, ctx: FailureContext): DeliveryError {
  const { where } = ctx;
  if (error instanceof IncomingWebhookHTTPError) return fromHttpError(error, ctx, where);
  if (error instanceof IncomingWebhookRequestError) {
    const { original } = error;
    if (original.name === 'TimeoutError' || original.name === 'AbortError') {
      const message = `Slack webhook gave no response within ${ctx.timeoutMs} ms${where}`;
      return new DeliveryError(message, { outcome: 'retry', code: 'timeout' });
    }
    const code = networkCode(original) ?? 'network_error';
    return new DeliveryError(`Slack webhook request failed: ${code}${where}`, {
      outcome: isUnreachableUrl(code) ? 'park' : 'retry',
      code,
    });
  }
  const name = error instanceof Error ? error.name : typeof error;
  return new DeliveryError(`Slack webhook send failed: ${name}${where}`, {
    outcome: 'retry',
    code: 'unknown',
  });
}
