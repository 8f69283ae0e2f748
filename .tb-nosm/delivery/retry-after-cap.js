import { formatDuration } from "../config/duration.js";
const UNSTATED_RETRY_AFTER_MS = 1e3;
function rateLimitPause(retryAfterMs, maxRetryAfterMs) {
  const asked = retryAfterMs ?? UNSTATED_RETRY_AFTER_MS;
  if (asked <= maxRetryAfterMs) return { waitMs: asked, cappedFromMs: null };
  return { waitMs: maxRetryAfterMs, cappedFromMs: asked };
}
function describeCap(cappedFromMs, waitMs) {
  return `Retry-After ${Math.round(cappedFromMs / 1e3)} s capped to ${formatDuration(waitMs)}`;
}
export {
  describeCap,
  rateLimitPause
};
