import { DAY_MS } from '../time/units.js';

/**
 * A fact first seen more than this many whole days after the date it is disclosed for is told with both
 * (issue 34): a Friday position seen on Saturday is news as usual; seen on Sunday or later, a reader
 * should know shortwatch learnt it late (a late filing, a register published late, a source down).
 */
export const SEEN_LATE_AFTER_DAYS = 1;

/**
 * Whole days from the start (UTC) of `date` to `seenAt`, when more than {@link SEEN_LATE_AFTER_DAYS};
 * undefined when it was seen in time, before its date (a simulated calendar), or either is unparsable.
 */
export function seenLateByDays(date: string, seenAt: string): number | undefined {
  const days = Math.floor((Date.parse(seenAt) - Date.parse(`${date.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
  return Number.isFinite(days) && days > SEEN_LATE_AFTER_DAYS ? days : undefined;
}
