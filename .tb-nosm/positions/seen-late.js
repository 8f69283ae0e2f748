import { DAY_MS } from "../time/units.js";
const SEEN_LATE_AFTER_DAYS = 1;
function seenLateByDays(date, seenAt) {
  const days = Math.floor((Date.parse(seenAt) - Date.parse(`${date.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
  return Number.isFinite(days) && days > SEEN_LATE_AFTER_DAYS ? days : void 0;
}
export {
  SEEN_LATE_AFTER_DAYS,
  seenLateByDays
};
