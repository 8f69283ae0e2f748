import { formatDuration } from "../config/duration.js";
async function recordRateLimit(parts, error, info) {
  const where = `upstream answered 429 to ${info.method} ${info.path}`;
  const window = error.window ?? "unknown";
  if (error.retryAfterMs !== void 0) {
    const after = formatDuration(error.retryAfterMs);
    return parts.budget.blockFor(
      error.retryAfterMs,
      `rate-limited: ${where} (${window} window, Retry-After ${after})`
    );
  }
  if (error.window === "minute") {
    return parts.budget.blockUntilWindowEnd(
      "minute",
      `rate-limited-minute: ${where} (minute window, no Retry-After)`
    );
  }
  const named = error.window === "day" ? "day" : "unknown";
  const every = formatDuration(parts.rateLimitProbeMs);
  return parts.budget.probeAfterRateLimit({
    window: named,
    everyMs: parts.rateLimitProbeMs,
    // A day limit most likely turns at our own midnight, an unnamed one at the minute's end: the first
    // probe goes then if that is sooner than one interval.
    firstProbeBy: named === "day" ? "day" : "minute",
    reason: `rate-limited-${named}-probing: ${where} (${window} window, no Retry-After); one request every ${every} asks whether it answers again`
  });
}
export {
  recordRateLimit
};
