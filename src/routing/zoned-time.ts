import { DAY_MS } from '../time/units.js';
/** A calendar date (month 1–12). */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** A wall-clock date and time in some time zone. */
export interface LocalDateTime extends CalendarDate {
  hour: number;
  minute: number;
  second?: number;
}

/** Lower-case short weekday names, Sunday first (the order of `Date#getUTCDay`). */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** A short weekday name as used in config (`mon` … `sun`). */
export type Weekday = (typeof WEEKDAYS)[number];

/** The local wall-clock parts of an instant in a time zone, with its weekday. */
export interface ZonedParts extends Required<LocalDateTime> {
  weekday: Weekday;
}

// Building a DateTimeFormat is costly and a zone's formatter never changes: keep one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** The weekday of a calendar date (proleptic Gregorian, no time zone involved). */
export function weekdayOf(date: CalendarDate): Weekday {
  return WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()] ?? 'sun';
}

/** The calendar date `days` after (or before, when negative) the given one. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The wall-clock date, time and weekday of `at` in an IANA time zone. */
export function zonedParts(at: Date, timezone: string): ZonedParts {
  const values: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(at)) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  const parts = {
    year: values.year ?? 0,
    month: values.month ?? 1,
    day: values.day ?? 1,
    hour: values.hour ?? 0,
    minute: values.minute ?? 0,
    second: values.second ?? 0,
  };
  return { ...parts, weekday: weekdayOf(parts) };
}

function wallAsUtc(parts: LocalDateTime): number {
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second ?? 0);
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
export function offsetAt(instant: number, timezone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallAsUtc(zonedParts(new Date(whole), timezone)) - whole;
}

/**
 * The instant at which a zone's clocks show the given wall time. A time repeated when clocks fall back
 * maps to its first occurrence; a time skipped when they spring forward maps to the next instant that
 * exists, the moment of the change (02:30 on a 02:00→03:00 night gives 03:00).
 */
export function zonedTimeToInstant(parts: LocalDateTime, timezone: string): Date {
  const wall = wallAsUtc(parts);
  // The offsets a day either side bracket any single change near this wall time.
  const before = offsetAt(wall - DAY_MS, timezone);
  const after = offsetAt(wall + DAY_MS, timezone);
  const valid = [wall - before, wall - after].filter((t) => wall === t + offsetAt(t, timezone));
  if (valid.length > 0) return new Date(Math.min(...valid));
  return new Date(changeInstant(wall - after, wall - before, after, timezone));
}

/** Binary search (to the second) for the first instant in (low, high] whose offset is `target`. */
function changeInstant(low: number, high: number, target: number, timezone: string): number {
  let lo = low;
  let hi = high;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, timezone) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}
