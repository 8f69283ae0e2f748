import { offsetAt } from "../routing/zoned-time.js";
import { DAY_MS, MINUTE_MS } from "../time/units.js";
function parseTimeOfDay(text) {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : void 0;
}
function isBusinessWindow(day) {
  const weekday = ((day + 4) % 7 + 7) % 7;
  return weekday !== 0 && weekday !== 6;
}
function zoneOffsetMs(date, timeZone) {
  return offsetAt(Date.parse(`${date}T12:00:00Z`), timeZone);
}
function publicationShare(clock, date) {
  const utcMs = clock.localMinutes * MINUTE_MS - zoneOffsetMs(date, clock.timeZone);
  return (utcMs % DAY_MS + DAY_MS) % DAY_MS / DAY_MS;
}
function instantIn(clock, day, date) {
  return day * clock.dayMs + Math.round(publicationShare(clock, date) * clock.dayMs);
}
function nextPublication(clock, afterMs, date) {
  for (let day = Math.floor(afterMs / clock.dayMs); ; day++) {
    if (!isBusinessWindow(day)) continue;
    const at = instantIn(clock, day, date);
    if (at > afterMs) return at;
  }
}
function previousPublication(clock, atMs, date) {
  for (let day = Math.floor(atMs / clock.dayMs); ; day--) {
    if (!isBusinessWindow(day)) continue;
    const at = instantIn(clock, day, date);
    if (at <= atMs) return at;
  }
}
export {
  isBusinessWindow,
  nextPublication,
  parseTimeOfDay,
  previousPublication,
  publicationShare,
  zoneOffsetMs
};
