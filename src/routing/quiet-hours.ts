import type { QuietHours } from '../config/schema.js';
import { addDays, weekdayOf, zonedParts, zonedTimeToInstant } from './zoned-time.js';

// Periods that touch (a 00:00–00:00 weekend, back-to-back evenings) are merged; a week bounds the merging.
const MAX_MERGED_PERIODS = 7;

function clock(text: string): { hour: number; minute: number } {
  const [hour, minute] = text.split(':').map(Number);
  return { hour: hour ?? 0, minute: minute ?? 0 };
}

/** The one quiet period containing `at`, as [start, end) instants, or null. */
function periodAt(quiet: QuietHours, at: Date): { start: Date; end: Date } | null {
  const start = clock(quiet.start);
  const end = clock(quiet.end);
  // A period ending at or before its start time runs into the next day; start === end means 24 hours.
  const overnight = end.hour * 60 + end.minute <= start.hour * 60 + start.minute;
  const today = zonedParts(at, quiet.timezone);
  for (const offset of [-1, 0]) {
    const day = addDays(today, offset);
    if (!quiet.days.includes(weekdayOf(day))) continue;
    const from = zonedTimeToInstant({ ...day, ...start, second: 0 }, quiet.timezone);
    const until = zonedTimeToInstant(
      { ...addDays(day, overnight ? 1 : 0), ...end, second: 0 },
      quiet.timezone,
    );
    if (from.getTime() <= at.getTime() && at.getTime() < until.getTime()) return { start: from, end: until };
  }
  return null;
}

/**
 * When `at` falls in quiet hours, the instant they end; otherwise null. `days` names the local day on
 * which a period starts; the start instant is quiet, the end instant is not. Periods that follow on
 * without a gap are merged, so the answer is never itself inside quiet hours (up to a week ahead).
 */
export function quietUntil(quiet: QuietHours, at: Date): Date | null {
  let period = periodAt(quiet, at);
  if (!period) return null;
  for (let merged = 1; merged < MAX_MERGED_PERIODS; merged++) {
    const next = periodAt(quiet, period.end);
    if (!next) break;
    period = next;
  }
  return period.end;
}
