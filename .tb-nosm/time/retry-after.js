const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = MONTHS.join("|");
const DAY = "Mon|Tue|Wed|Thu|Fri|Sat|Sun";
const LONG_DAY = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
const IMF_FIXDATE = new RegExp(`^(?:${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:${LONG_DAY}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:${DAY}) (${MONTH}) ([ \\d]\\d) ${TIME} (\\d{4})$`);
function parseRetryAfter(header, nowMs, dateHeader) {
  const value = singleValue(header);
  if (value === void 0) return void 0;
  if (/^\d+$/.test(value)) {
    const ms = Number(value) * 1e3;
    return Number.isSafeInteger(ms) ? ms : void 0;
  }
  const at = parseHttpDate(value, nowMs);
  const date = singleValue(dateHeader);
  const from = (date === void 0 ? void 0 : parseHttpDate(date, nowMs)) ?? nowMs;
  if (at === void 0 || at < from) return void 0;
  return at - from;
}
function singleValue(header) {
  const values = (Array.isArray(header) ? header : [header]).flatMap(
    (v) => v === void 0 ? [] : [v.trim()]
  );
  const first = values[0];
  if (!first || values.some((v) => v !== first)) return void 0;
  return first;
}
function parseHttpDate(text, nowMs) {
  let match = IMF_FIXDATE.exec(text);
  if (match) {
    const [, day = "", month = "", year = "", hour = "", minute = "", second = ""] = match;
    return toEpoch({ year: Number(year), month, day, hour, minute, second });
  }
  match = RFC850_DATE.exec(text);
  if (match) {
    const [, day = "", month = "", yy = "", hour = "", minute = "", second = ""] = match;
    return toEpoch({ year: fullYear(Number(yy), nowMs), month, day, hour, minute, second });
  }
  match = ASCTIME_DATE.exec(text);
  if (match) {
    const [, month = "", day = "", hour = "", minute = "", second = "", year = ""] = match;
    return toEpoch({ year: Number(year), month, day: day.trim(), hour, minute, second });
  }
  return void 0;
}
function fullYear(yy, nowMs) {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const candidate = Math.floor(thisYear / 100) * 100 + yy;
  return candidate > thisYear + 50 ? candidate - 100 : candidate;
}
function toEpoch(parts) {
  const month = MONTHS.indexOf(parts.month);
  const [day, hour, minute, second] = [parts.day, parts.hour, parts.minute, parts.second].map(Number);
  if (day === void 0 || hour === void 0 || minute === void 0 || second === void 0)
    return void 0;
  if (hour > 23 || minute > 59 || second > 60) return void 0;
  const at = Date.UTC(parts.year, month, day, hour, minute, Math.min(second, 59));
  const check = new Date(at);
  if (check.getUTCMonth() !== month || check.getUTCDate() !== day) return void 0;
  return at;
}
export {
  parseRetryAfter
};
