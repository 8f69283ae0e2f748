import { round4 } from "../../positions/round.js";
function broadcasts(events, rule) {
  if (rule === void 0) return false;
  const { minDelta, kinds } = rule;
  return events.some(
    (event) => minDelta !== void 0 && round4(Math.abs(event.delta)) >= round4(minDelta) || (kinds?.includes(event.kind) ?? false)
  );
}
export {
  broadcasts
};
