import { DAY_MS } from "../time/units.js";
const LATE_FILING_DAYS = 4;
function lateFiling(disclosure) {
  const reportedOn = disclosure?.reportedOn;
  if (disclosure === null || disclosure === void 0 || reportedOn === void 0) return void 0;
  const days = Math.round((Date.parse(reportedOn) - Date.parse(disclosure.date)) / DAY_MS);
  if (!Number.isFinite(days) || days <= LATE_FILING_DAYS) return void 0;
  return { date: disclosure.date, reportedOn, days };
}
export {
  LATE_FILING_DAYS,
  lateFiling
};
