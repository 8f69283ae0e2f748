import { positionsAsOf } from "../positions/as-of.js";
async function issuerSeen(stores, snapshot, key, source, atMs) {
  const logged = await stores.eventLog.recent({ issuerId: key, limit: stores.eventsKept });
  const events = logged.filter((e) => e.source === source);
  const answer = positionsAsOf({ snapshot, events, trimmed: logged.length >= stores.eventsKept }, atMs);
  return { key, name: snapshot.issuerName, ...source === void 0 ? {} : { source }, ...answer };
}
async function upstreamIssuerSeen(stores, issuerId, atMs) {
  const snapshot = (await stores.snapshots.readMany([issuerId])).snapshots.get(issuerId);
  return snapshot === void 0 ? null : issuerSeen(stores, snapshot, issuerId, void 0, atMs);
}
async function registerIssuersSeen(stores, sources, matches, atMs) {
  const found = [];
  for (const source of sources) {
    const keys = await stores.registers.issuerKeys(source);
    const snapshots = await stores.registers.snapshots(source, keys.sort());
    for (const [key, snapshot] of snapshots) {
      if (!matches({ key, name: snapshot.issuerName })) continue;
      found.push(await issuerSeen(stores, snapshot, key, source, atMs));
    }
  }
  return found;
}
export {
  registerIssuersSeen,
  upstreamIssuerSeen
};
