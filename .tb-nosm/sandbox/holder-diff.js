import { round4 } from "../positions/round.js";
const KEYS = /* @__PURE__ */ new Map();
const KEYS_KEPT = 1e4;
function holderKeyOf(name) {
  const known = KEYS.get(name);
  if (known !== void 0) return known;
  const key = name.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  if (KEYS.size >= KEYS_KEPT) KEYS.clear();
  KEYS.set(name, key);
  return key;
}
function latestByKey(rows) {
  const latest = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const key = holderKeyOf(row.position_holder);
    const seen = latest.get(key);
    if (!seen || row.date >= seen.date) latest.set(key, row);
  }
  return latest;
}
function diffActive(issuerId, before, after) {
  const old = latestByKey(before);
  const now = latestByKey(after);
  const changes = [];
  for (const [holderKey, row] of now) {
    const prev = old.get(holderKey);
    const holder = row.position_holder;
    if (!prev) changes.push({ issuerId, holder, holderKey, kind: "opened", from: null, to: row.value });
    else if (round4(prev.value) !== round4(row.value)) {
      const kind = row.value > prev.value ? "increased" : "decreased";
      changes.push({ issuerId, holder, holderKey, kind, from: prev.value, to: row.value });
    }
  }
  for (const [holderKey, prev] of old) {
    if (now.has(holderKey)) continue;
    const holder = prev.position_holder;
    changes.push({ issuerId, holder, holderKey, kind: "closed", from: prev.value, to: null });
  }
  return changes.sort((a, b) => a.holderKey < b.holderKey ? -1 : a.holderKey > b.holderKey ? 1 : 0);
}
export {
  diffActive,
  holderKeyOf,
  latestByKey
};
