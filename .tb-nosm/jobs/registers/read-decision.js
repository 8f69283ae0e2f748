import { MARKET_BOUNDARIES } from "../observe/boundary.js";
import { describeDisappearance } from "../observe/disappearance.js";
async function tellDecision(ctx, source, { verdict, regime }) {
  const removed = describeDisappearance(verdict.removed);
  const key = `source-decided-${source.name}-${verdict.removed.fingerprint}`;
  if (regime !== void 0) {
    await ctx.notices.tell(key, "info", `Named holders ended in ${source.name}`, regimeText(source, regime));
    return;
  }
  if (verdict.confirmed) {
    const text = `A read of ${source.name} removed much of the register (${removed}); a confirming read ${sinceText(verdict)} agreed, so its closes and ended aggregates were told. ${sharesText(source)}`;
    await ctx.notices.tell(key, "info", `Register ${source.name}: mass removal confirmed`, text);
  } else if (verdict.held !== null) {
    ctx.logger.info(
      { source: source.name, held: verdict.held.text },
      "held-back read not confirmed: only real changes told"
    );
  }
}
function regimeText(source, regime) {
  const counts = `${regime.emptied} of ${regime.named} issuers that named holders name none now`;
  if (regime.by === "share")
    return `${counts} in ${source.name}, more than ${pct(source.regimeBoundary.share)} of them, and a confirming read agreed: told once per issuer as "named holders no longer published", not as closes.`;
  const calendar = MARKET_BOUNDARIES.map(
    (b) => `${b.market} named holders end with the positions published up to ${b.namedUntil}; ${b.what} from ${b.replacedFrom}`
  ).join("; ");
  const own = source.regimeBoundary.namedHoldersUntil;
  return `${counts} in ${source.name}; past the boundary (${calendar}${own ? `; this source's namedHoldersUntil ${own}` : ""}): holders dropped are told once per issuer as "named holders no longer published", not as closes.`;
}
function sinceText(verdict) {
  return verdict.held === null ? "" : `(held back since ${verdict.held.since})`;
}
function sharesText(source) {
  return `Reads removing more than ${pct(source.confirm.share)} of the issuers or named holders wait for a confirming read; a regime change needs more than ${pct(source.regimeBoundary.share)} of the named issuers emptied.`;
}
function pct(share) {
  return `${Math.round(share * 1e3) / 10}%`;
}
export {
  tellDecision
};
