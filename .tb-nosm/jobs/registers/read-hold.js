import {
  describeDisappearance,
  disappearance,
  needsConfirmation
} from "../observe/disappearance.js";
function listingOf(snapshot) {
  return new Map(snapshot.issuers.map((issuer) => [issuer.key, issuer.positions.map((p) => p.holderKey)]));
}
async function holdVerdict(ctx, store, source, reads) {
  const held = await store.held(source.name);
  const removed = disappearance(
    reads.last === void 0 ? /* @__PURE__ */ new Map() : listingOf(reads.last),
    listingOf(reads.snapshot)
  );
  const waited = (h) => source.confirm.after === void 0 || ctx.now().getTime() - Date.parse(h.since) >= source.confirm.after;
  const confirmed = held !== null && held.fingerprint === removed.fingerprint && waited(held);
  const commit = confirmed || !needsConfirmation(removed, source.confirm.share);
  return { commit, confirmed, held, removed };
}
async function holdRead(ctx, store, source, verdict, why) {
  const now = ctx.now();
  const same = verdict.held?.fingerprint === verdict.removed.fingerprint ? verdict.held : null;
  const since = same?.since ?? now.toISOString();
  const againMs = Date.parse(since) + (source.confirm.after ?? source.interval);
  const held = {
    fingerprint: verdict.removed.fingerprint,
    since,
    text: `${describeDisappearance(verdict.removed)}${why}: held back until a confirming read`,
    readAgainAt: new Date(Math.max(againMs, now.getTime())).toISOString()
  };
  await store.hold(source.name, held);
  if (same === null)
    ctx.logger.warn(
      { source: source.name, removed: verdict.removed },
      `register read held back: ${held.text}`
    );
  return held;
}
export {
  holdRead,
  holdVerdict,
  listingOf
};
