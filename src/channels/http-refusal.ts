import { DeliveryError } from './delivery-error.js';

// Slack, Teams and most receivers count requests per second: a 429 without Retry-After waits one.
const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * A refused HTTP request as the outcome it calls for, the same for every channel: 429 pauses the channel
 * for its Retry-After (a second when it gave none), 408 and 5xx retry with backoff, any other status parks.
 */
export function httpRefusal(
  message: string,
  details: { status: number; code?: string; retryAfterMs: number | undefined },
): DeliveryError {
  const { status, code } = details;
  if (status === 429) {
    const retryAfterMs = details.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
    return new DeliveryError(message, {
      outcome: 'rate-limit',
      status,
      ...(code ? { code } : {}),
      retryAfterMs,
    });
  }
  const outcome = status >= 500 || status === 408 ? 'retry' : 'park';
  return new DeliveryError(message, { outcome, status, ...(code ? { code } : {}) });
}
