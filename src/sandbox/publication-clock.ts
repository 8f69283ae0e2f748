import { offsetAt } from '../routing/zoned-time.js';
import { DAY_MS, MINUTE_MS } from '../time/units.js';

// When a register publishes: at one local time of day on business days, as the AFM register does at
// about 15:30 Amsterdam time. Time of day is measured on a day window of any length (UTC-aligned on
// multiples of it, as the rate limits and the daemon's budget are), so a test can run a 60 s "day".

/** When the dataset refreshes. */
export interface PublicationClock {
  /** Length of a day window, ms. */
  dayMs: number;
  /** Local time of day of each publication, minutes after midnight. */
  localMinutes: number;
  /** IANA time zone of the local time. */
  timeZone: string;
}

/** `HH:MM` (24-hour) as minutes after midnight; undefined when it is not such a time. */
export function parseTimeOfDay(text: string): number | undefined {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** Whether the day window `day` (counted from the epoch, a Thursday) falls on Monday to Friday. */
export function isBusinessWindow(day: number): boolean {
  const weekday = (((day + 4) % 7) + 7) % 7;
  return weekday !== 0 && weekday !== 6;
}

/** The zone's offset from UTC at noon UTC on `date` (`YYYY-MM-DD`), ms; summer time included. */
export function zoneOffsetMs(date: string, timeZone: string): number {
  return offsetAt(Date.parse(`${date}T12:00:00Z`), timeZone);
}

/**
 * Where in a day window the publication falls (0 to 1): the local time converted to UTC with the
 * offset of `date` (the date the publication carries), as a share of a real day.
 */
export function publicationShare(clock: PublicationClock, date: string): number {
  const utcMs = clock.localMinutes * MINUTE_MS - zoneOffsetMs(date, clock.timeZone);
  return (((utcMs % DAY_MS) + DAY_MS) % DAY_MS) / DAY_MS;
}

/** The publication instant (epoch ms) in day window `day`. */
function instantIn(clock: PublicationClock, day: number, date: string): number {
  return day * clock.dayMs + Math.round(publicationShare(clock, date) * clock.dayMs);
}

/** The first publication strictly after `afterMs`; `date` is the date it will carry. */
export function nextPublication(clock: PublicationClock, afterMs: number, date: string): number {
  for (let day = Math.floor(afterMs / clock.dayMs); ; day++) {
    if (!isBusinessWindow(day)) continue;
    const at = instantIn(clock, day, date);
    if (at > afterMs) return at;
  }
}

/** The last publication at or before `atMs`: when a register watched from `atMs` was last refreshed. */
export function previousPublication(clock: PublicationClock, atMs: number, date: string): number {
  for (let day = Math.floor(atMs / clock.dayMs); ; day--) {
    if (!isBusinessWindow(day)) continue;
    const at = instantIn(clock, day, date);
    if (at <= atMs) return at;
  }
}
