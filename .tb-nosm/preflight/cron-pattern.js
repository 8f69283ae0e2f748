import { CronExpressionParser } from "cron-parser";
const MACROS = /* @__PURE__ */ new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@hourly"]);
const RANGE_WITH_THREE_ENDS = /^[^/]*-[^/]*-/;
function cronPatternProblem(pattern, timezone) {
  const fields = pattern.trim().split(/\s+/).filter(Boolean);
  const macro = fields.length === 1 && MACROS.has(fields[0]?.toLowerCase() ?? "");
  if (!macro && (fields.length < 5 || fields.length > 6)) {
    return `has ${fields.length} fields; a cron pattern has 5 (minute hour day-of-month month day-of-week), or 6 with seconds first`;
  }
  const cut = fields.flatMap((field) => field.split(",")).find((part) => RANGE_WITH_THREE_ENDS.test(part));
  if (cut !== void 0) return `the range "${cut}" has more than two ends`;
  try {
    CronExpressionParser.parse(pattern, { tz: timezone, currentDate: new Date(Date.UTC(2e3, 0, 1)) }).next();
    return void 0;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
export {
  cronPatternProblem
};
