import { formatDuration } from '../config/duration.js';

/** Used when a 429 names no Retry-After the channel could read. */
const UNSTATED_RETRY_AFTER_MS = 1_000;

/** How long a channel pauses for a 429, and what the receiver asked for when that was cut. */
export interface RateLimitPause {
  waitMs: number;
  /** The Retry-After asked for, when it was longer than the cap (the pause is the cap); else null. */
  cappedFromMs: number | null;
}

/**
 * The pause a 429 asks for, bounded by `delivery.maxRetryAfter`: a receiver (or a proxy in front of it)
 * answering `Retry-After: 31536000` must not silence a channel for a year.
 */
export function rateLimitPause(retryAfterMs: number | undefined, maxRetryAfterMs: number): RateLimitPause {
  const asked = retryAfterMs ?? UNSTATED_RETRY_AFTER_MS;
  if (asked <= maxRetryAfterMs) return { waitMs: asked, cappedFromMs: null };
  return { waitMs: maxRetryAfterMs, cappedFromMs: asked };
}

/** `Retry-After 31536000 s capped to 1h`: the words the log line and the notice use. */
export function describeCap(cappedFromMs: number, waitMs: number): string {
  return `Retry-After ${Math.round(cappedFromMs / 1_000)} s capped to ${formatDuration(waitMs)}`;
}
