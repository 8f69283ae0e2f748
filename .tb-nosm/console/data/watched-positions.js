import { collectStatus } from "../../ops/status.js";
import { loadSourceViews } from "./source-views.js";
async function watchedSnapshots(app) {
  const { issuers } = await collectStatus(app);
  const { snapshots } = await app.ctx.snapshots.readMany(issuers.map((i) => i.id));
  return [...snapshots.values()];
}
function positionsByHolder(snapshots) {
  const byHolder = /* @__PURE__ */ new Map();
  for (const s of snapshots) {
    for (const [key, p] of Object.entries(s.positions)) {
      const list = byHolder.get(key) ?? [];
      list.push({
        issuerId: s.issuerId,
        issuerName: s.issuerName,
        holderKey: key,
        holder: p.holder,
        value: p.value,
        date: p.date
      });
      byHolder.set(key, list);
    }
  }
  return byHolder;
}
async function registerPositions(app) {
  const views = await loadSourceViews(app);
  return views.flatMap((view) => {
    const watched = new Set(view.watched.map((row) => row.key));
    return (view.kept?.snapshot.issuers ?? []).filter((issuer) => watched.has(issuer.key)).flatMap(
      (issuer) => issuer.positions.map(
        (p) => ({
          holderKey: p.holderKey,
          ...p.holderLei === void 0 ? {} : { holderLei: p.holderLei },
          issuerId: issuer.key,
          issuerName: issuer.name,
          holder: p.holder,
          value: p.percent,
          date: p.date,
          source: view.config.name
        })
      )
    );
  });
}
async function allPositionsByHolder(app, identities) {
  const byHolder = /* @__PURE__ */ new Map();
  const all = [...positionsByHolder(await watchedSnapshots(app)).values()].flat();
  for (const position of [...all, ...await registerPositions(app)]) {
    const key = identities.keyOf(position);
    const list = byHolder.get(key) ?? [];
    list.push(position);
    byHolder.set(key, list);
  }
  return byHolder;
}
export {
  allPositionsByHolder,
  positionsByHolder,
  watchedSnapshots
};
