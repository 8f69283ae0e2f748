import { holderKey } from "./holder-key.js";
const LEI = /^[A-Z0-9]{18}\d{2}$/;
function leiKey(lei) {
  return `lei:${lei}`;
}
function leiOf(text) {
  const bare = text.trim().toUpperCase().replace(/^LEI:/u, "");
  return LEI.test(bare) ? bare : void 0;
}
function identityKeyOf(text) {
  const lei = leiOf(text);
  return lei === void 0 ? holderKey(text) : leiKey(lei);
}
function aliasCycle(aliases) {
  const next = /* @__PURE__ */ new Map();
  aliases.forEach(({ alias, holder }, index) => {
    const source = identityKeyOf(alias);
    const target = identityKeyOf(holder);
    if (source !== target) next.set(source, { to: target, name: alias, index });
  });
  for (const start of next.keys()) {
    const path = [];
    const seen = /* @__PURE__ */ new Set();
    let current = start;
    while (current !== void 0 && next.has(current)) {
      if (seen.has(current))
        return current === start ? { index: next.get(start)?.index ?? 0, names: path } : void 0;
      seen.add(current);
      const step = next.get(current);
      path.push(step?.name ?? current);
      current = step?.to;
    }
  }
  return void 0;
}
export {
  aliasCycle,
  identityKeyOf,
  leiKey,
  leiOf
};
