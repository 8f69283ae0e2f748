import { registerIssuersSeen, upstreamIssuerSeen } from "../../lookup/as-of.js";
import { RegisterStore } from "../../state/register-store.js";
import { watchedSnapshots } from "./watched-positions.js";
async function positionsAsOf(app, atMs) {
  const stores = {
    snapshots: app.ctx.snapshots,
    registers: new RegisterStore(app.redis, app.ctx.prefix),
    eventLog: app.ctx.eventLog,
    eventsKept: app.settings.config.poll.eventsKept
  };
  const seen = [];
  for (const snapshot of await watchedSnapshots(app)) {
    const issuer = await upstreamIssuerSeen(stores, snapshot.issuerId, atMs);
    if (issuer !== null) seen.push(issuer);
  }
  const sources = app.settings.config.sources.map((s) => s.name);
  seen.push(...await registerIssuersSeen(stores, sources, () => true, atMs));
  return seen.flatMap(
    (issuer) => issuer.positions.map(
      (p) => ({
        issuerId: issuer.key,
        issuerName: issuer.name,
        holderKey: p.holderKey,
        holder: p.holder,
        value: p.value,
        date: p.date,
        ...issuer.source === void 0 ? {} : { source: issuer.source }
      })
    )
  );
}
export {
  positionsAsOf
};
