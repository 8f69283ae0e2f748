import { DAY_MS } from "../time/units.js";
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const formatters = /* @__PURE__ */ new Map();
function formatterFor(timezone) {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}
function weekdayOf(date) {
  return WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()] ?? "sun";
}
function addDays(date, days) {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}
function zonedParts(at, timezone) {
  const values = {};
  for (const part of formatterFor(timezone).formatToParts(at)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  const parts = {
    year: values.year ?? 0,
    month: values.month ?? 1,
    day: values.day ?? 1,
    hour: values.hour ?? 0,
    minute: values.minute ?? 0,
    second: values.second ?? 0
  };
  return { ...parts, weekday: weekdayOf(parts) };
}
function wallAsUtc(parts) {
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second ?? 0);
}
function offsetAt(instant, timezone) {
  const whole = Math.floor(instant / 1e3) * 1e3;
  return wallAsUtc(zonedParts(new Date(whole), timezone)) - whole;
}
function zonedTimeToInstant(parts, timezone) {
  const wall = wallAsUtc(parts);
  const before = offsetAt(wall - DAY_MS, timezone);
  const after = offsetAt(wall + DAY_MS, timezone);
  const valid = [wall - before, wall - after].filter((t) => wall === t + offsetAt(t, timezone));
  if (valid.length > 0) return new Date(Math.min(...valid));
  return new Date(changeInstant(wall - after, wall - before, after, timezone));
}
function changeInstant(low, high, target, timezone) {
  let lo = low;
  let hi = high;
  while (hi - lo > 1e3) {
    const mid = lo + Math.floor((hi - lo) / 2e3) * 1e3;
    if (offsetAt(mid, timezone) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}
export {
  WEEKDAYS,
  addDays,
  offsetAt,
  weekdayOf,
  zonedParts,
  zonedTimeToInstant
};
