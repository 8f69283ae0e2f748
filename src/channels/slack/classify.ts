import { IncomingWebhookHTTPError, IncomingWebhookRequestError } from '@slack/webhook';
import { z } from 'zod';
import { parseRetryAfter } from '../../time/retry-after.js';
import { DeliveryError } from '../delivery-error.js';
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
  /** `part 2/3` when the message was split, else empty. */
  part: string;
  /** Replaces secrets (the webhook URL and its path) in text that came from outside. */
  redact: (text: string) => string;
}

/** Slack asks for about one message a second per webhook; pause that long when it gives no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 1000;
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
  const message = `Slack webhook answered ${status} ${code}${where}`;
  if (status === 429) {
    const retryAfterMs =
      parseRetryAfter(ctx.retryAfter ?? undefined, ctx.nowMs, ctx.date ?? undefined) ??
      DEFAULT_RETRY_AFTER_MS;
    return new DeliveryError(message, { outcome: 'rate-limit', status, code, retryAfterMs });
  }
  if (status >= 500) return new DeliveryError(message, { outcome: 'retry', status, code });
  return new DeliveryError(message, { outcome: 'park', status, code });
}

/**
 * A failed webhook send as a DeliveryError: 429 pauses the channel, 5xx and transport failures retry,
 * other 4xx park. The library's own messages may name the URL, so none is kept, and no cause is attached.
 */
export function classifySlackFailure(error: unknown, ctx: FailureContext): DeliveryError {
  const where = ctx.part ? ` (${ctx.part})` : '';
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
