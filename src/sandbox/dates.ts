import { DAY_MS } from '../time/units.js';

function toEpochDay(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

function fromEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

function isWeekend(day: number): boolean {
  // 1970-01-01 (epoch day 0) was a Thursday.
  const weekday = (((day + 4) % 7) + 7) % 7;
  return weekday === 0 || weekday === 6;
}

/** Moves a `YYYY-MM-DD` date by `n` weekdays (negative goes back), skipping Saturdays and Sundays. */
export function addWeekdays(date: string, n: number): string {
  let day = toEpochDay(date);
  const direction = n < 0 ? -1 : 1;
  for (let left = Math.abs(n); left > 0; ) {
    day += direction;
    if (!isWeekend(day)) left--;
  }
  return fromEpochDay(day);
}

/** The dataset's refresh time on a date: 17:30 UTC plus `revision` seconds, so refreshes stay ordered. */
export function refreshTime(date: string, revision: number): string {
  return new Date(toEpochDay(date) * DAY_MS + 63_000_000 + revision * 1000).toISOString();
}

/**
 * The last weekday before the day of `nowMs` (UTC): a scenario started there reads as today's news, where
 * the scenarios' fixed start (January 2026) makes every change one "first seen" months after its date.
 */
export function lastWeekdayBefore(nowMs: number): string {
  return addWeekdays(new Date(nowMs).toISOString().slice(0, 10), -1);
}
