import { formatDuration } from '../config/duration.js';
import type { RateLimitedError } from '../upstream/errors.js';
import type { ResponseInfo } from '../upstream/request-info.js';
import type { BlockResult, RateBudget } from './rate-budget.js';

/**
 * Turns a 429 into the shared block. Retry-After is the service's own word. Without it, a 429 that names
 * the minute window holds until that window ends (by Redis' clock). For the day window, or none we know,
 * the upstream's window alignment is unknown (the spec leaves it open), so its end cannot be computed:
 * rather than wait for our own midnight (up to a day lost, or too early), nothing is sent until a first
 * probe, then one request every `rateLimitProbeMs` (claimed by whichever process asks first) checks whether
 * the upstream answers again; its answer ends the block.
 */
export async function recordRateLimit(
  parts: { budget: RateBudget; rateLimitProbeMs: number },
  error: RateLimitedError,
  info: ResponseInfo,
): Promise<BlockResult> {
  const where = `upstream answered 429 to ${info.method} ${info.path}`;
  const window = error.window ?? 'unknown';
  if (error.retryAfterMs !== undefined) {
    const after = formatDuration(error.retryAfterMs);
    return parts.budget.blockFor(
      error.retryAfterMs,
      `rate-limited: ${where} (${window} window, Retry-After ${after})`,
    );
  }
  if (error.window === 'minute') {
    return parts.budget.blockUntilWindowEnd(
      'minute',
      `rate-limited-minute: ${where} (minute window, no Retry-After)`,
    );
  }
  const named = error.window === 'day' ? 'day' : 'unknown';
  const every = formatDuration(parts.rateLimitProbeMs);
  return parts.budget.probeAfterRateLimit({
    window: named,
    everyMs: parts.rateLimitProbeMs,
    // A day limit most likely turns at our own midnight, an unnamed one at the minute's end: the first
    // probe goes then if that is sooner than one interval.
    firstProbeBy: named === 'day' ? 'day' : 'minute',
    reason: `rate-limited-${named}-probing: ${where} (${window} window, no Retry-After); one request every ${every} asks whether it answers again`,
  });
}
