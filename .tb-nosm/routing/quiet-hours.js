import { addDays, weekdayOf, zonedParts, zonedTimeToInstant } from "./zoned-time.js";
const MAX_MERGED_PERIODS = 7;
function clock(text) {
  const [hour, minute] = text.split(":").map(Number);
  return { hour: hour ?? 0, minute: minute ?? 0 };
}
function periodAt(quiet, at) {
  const start = clock(quiet.start);
  const end = clock(quiet.end);
  const overnight = end.hour * 60 + end.minute <= start.hour * 60 + start.minute;
  const today = zonedParts(at, quiet.timezone);
  for (const offset of [-1, 0]) {
    const day = addDays(today, offset);
    if (!quiet.days.includes(weekdayOf(day))) continue;
    const from = zonedTimeToInstant({ ...day, ...start, second: 0 }, quiet.timezone);
    const until = zonedTimeToInstant(
      { ...addDays(day, overnight ? 1 : 0), ...end, second: 0 },
      quiet.timezone
    );
    if (from.getTime() <= at.getTime() && at.getTime() < until.getTime()) return { start: from, end: until };
  }
  return null;
}
function quietUntil(quiet, at) {
  let period = periodAt(quiet, at);
  if (!period) return null;
  for (let merged = 1; merged < MAX_MERGED_PERIODS; merged++) {
    const next = periodAt(quiet, period.end);
    if (!next) break;
    period = next;
  }
  return period.end;
}
export {
  quietUntil
};
