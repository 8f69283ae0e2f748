import { parseDuration } from "../config/duration.js";
import { DAY_MS } from "../time/units.js";
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
function parseInstant(text, nowMs, endOfDay = false) {
  const trimmed = text.trim();
  if (trimmed === "") return void 0;
  if (DATE_ONLY.test(trimmed)) {
    const start = Date.parse(`${trimmed}T00:00:00.000Z`);
    if (Number.isNaN(start)) return void 0;
    return endOfDay ? start + DAY_MS - 1 : start;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    const at = Date.parse(trimmed);
    return Number.isNaN(at) ? void 0 : at;
  }
  const ago = parseDuration(trimmed);
  return ago === void 0 ? void 0 : nowMs - ago;
}
export {
  parseInstant
};
