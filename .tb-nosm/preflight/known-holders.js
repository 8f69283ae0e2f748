import { holderKey } from "../positions/holder-key.js";
import { holderMatches } from "../routing/match-keys.js";
import { editDistance } from "../text/edit-distance.js";
const EVENTS_READ = 5e3;
async function readKnownHolders(stores, issuerIds) {
  const byKey = /* @__PURE__ */ new Map();
  const { snapshots } = await stores.snapshots.readMany(issuerIds);
  for (const snapshot of snapshots.values()) {
    for (const [key, position] of Object.entries(snapshot.positions)) byKey.set(key, position.holder);
  }
  for (const event of await stores.eventLog.recent({ limit: EVENTS_READ })) {
    if (!byKey.has(event.holderKey)) byKey.set(event.holderKey, event.holder);
  }
  for (const snapshot of snapshots.values()) {
    for (const key of Object.keys(snapshot.memory ?? {})) if (!byKey.has(key)) byKey.set(key, key);
  }
  return [...byKey].map(([key, name]) => ({ key, name }));
}
function registerHolders(snapshot) {
  const byKey = /* @__PURE__ */ new Map();
  for (const issuer of snapshot.issuers) {
    for (const position of [...issuer.positions, ...issuer.history ?? []])
      if (!byKey.has(position.holderKey)) byKey.set(position.holderKey, position.holder);
  }
  return [...byKey].map(([key, name]) => ({ key, name }));
}
async function storedRegisterReads(registers, sources) {
  const reads = /* @__PURE__ */ new Map();
  for (const source of sources) {
    const stored = await registers.lastSnapshot(source);
    if (stored !== null) reads.set(source, stored.snapshot);
  }
  return reads;
}
function mergeHolders(...lists) {
  const byKey = /* @__PURE__ */ new Map();
  for (const list of lists)
    for (const holder of list) if (!byKey.has(holder.key)) byKey.set(holder.key, holder);
  return [...byKey.values()];
}
function isKnownHolder(entry, known) {
  return known.some((holder) => holderMatches(entry, holder.key));
}
function closestHolders(entry, known, count = 3) {
  const target = holderKey(entry);
  if (target === "") return [];
  const allowed = Math.max(2, Math.floor(target.length / 5));
  return known.map((holder) => ({
    holder,
    near: Math.min(
      editDistance(target, holder.key.slice(0, target.length)),
      editDistance(target, holder.key)
    )
  })).filter(({ near }) => near <= allowed).sort((a, b) => a.near - b.near || a.holder.name.localeCompare(b.holder.name)).slice(0, count).map(({ holder }) => holder.name);
}
export {
  closestHolders,
  isKnownHolder,
  mergeHolders,
  readKnownHolders,
  registerHolders,
  storedRegisterReads
};
