import { holderKey } from "./holder-key.js";
import { round4 } from "./round.js";
function collapseRows(rows) {
  const byKey = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const candidate = { holder: row.position_holder, value: round4(row.value), date: row.date };
    const key = holderKey(row.position_holder);
    const kept = byKey.get(key);
    if (kept === void 0 || wins(candidate, kept)) byKey.set(key, candidate);
  }
  return Object.fromEntries([...byKey.entries()].sort(([a], [b]) => compareText(a, b)));
}
function wins(candidate, kept) {
  if (candidate.date !== kept.date) return candidate.date > kept.date;
  if (candidate.value !== kept.value) return candidate.value > kept.value;
  return candidate.holder < kept.holder;
}
function compareText(a, b) {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
export {
  collapseRows,
  compareText
};
