import { round4 } from '../../positions/round.js';
import type { EventKind, PositionEvent } from '../../positions/types.js';

/** A slack-app channel's `broadcast`: which thread replies also go to the conversation itself. */
export interface BroadcastRule {
  /** Percentage points: a reply with an event that moved at least this much (up or down). */
  minDelta?: number | undefined;
  /** A reply with an event of one of these kinds. */
  kinds?: readonly EventKind[] | undefined;
}

/**
 * Whether a thread reply showing `events` is posted with `reply_broadcast` (seen in the thread and in the
 * conversation): one of its events moved at least `minDelta` pp or is of one of `kinds`. No rule, none.
 */
export function broadcasts(events: readonly PositionEvent[], rule: BroadcastRule | undefined): boolean {
  if (rule === undefined) return false;
  const { minDelta, kinds } = rule;
  return events.some(
    (event) =>
      (minDelta !== undefined && round4(Math.abs(event.delta)) >= round4(minDelta)) ||
      (kinds?.includes(event.kind) ?? false),
  );
}
