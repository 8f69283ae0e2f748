import { holderKey } from "../positions/holder-key.js";
import { round4 } from "../positions/round.js";
import { crosses } from "./filter.js";
function valuesOf(input) {
  switch (input.kind) {
    case "opened":
      return { before: null, after: input.value };
    case "increased":
      return { before: input.previous ?? Math.max(0, round4(input.value - 0.1)), after: input.value };
    case "decreased":
      return { before: input.previous ?? round4(input.value + 0.1), after: input.value };
    case "closed":
      return input.previous === void 0 ? { before: input.value, after: null } : { before: input.previous, after: null, final: input.value };
  }
}
function syntheticEvent(input) {
  const issuer = typeof input.issuer === "string" ? { id: input.issuer, name: input.issuer } : input.issuer;
  const date = input.now.toISOString().slice(0, 10);
  const disclosure = (value) => value === null ? null : { value, date };
  const { before, after, final } = valuesOf(input);
  const key = holderKey(input.holder);
  const from = before ?? 0;
  const to = after ?? 0;
  return {
    id: `synthetic-${input.kind}-${key || "holder"}`,
    kind: input.kind,
    issuer,
    holderKey: key,
    holder: input.holder,
    previous: disclosure(before),
    current: disclosure(after),
    ...final === void 0 ? {} : { final: { value: final, date } },
    delta: round4(to - from),
    thresholdsCrossed: [...input.thresholds ?? []].filter((t) => crosses(from, to, t)).sort((a, b) => a - b),
    issuerTotal: { before: from, after: to },
    detectedAt: input.now.toISOString()
  };
}
export {
  syntheticEvent
};
