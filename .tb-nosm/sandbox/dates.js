import { DAY_MS } from "../time/units.js";
function toEpochDay(date) {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}
function fromEpochDay(day) {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
function isWeekend(day) {
  const weekday = ((day + 4) % 7 + 7) % 7;
  return weekday === 0 || weekday === 6;
}
function addWeekdays(date, n) {
  let day = toEpochDay(date);
  const direction = n < 0 ? -1 : 1;
  for (let left = Math.abs(n); left > 0; ) {
    day += direction;
    if (!isWeekend(day)) left--;
  }
  return fromEpochDay(day);
}
function refreshTime(date, revision) {
  return new Date(toEpochDay(date) * DAY_MS + 63e6 + revision * 1e3).toISOString();
}
export {
  addWeekdays,
  refreshTime
};
