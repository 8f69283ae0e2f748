import { isWatched } from "../../jobs/registers/register-diff.js";
import { round4 } from "../../positions/round.js";
import { DISCLOSURE_THRESHOLD } from "../../positions/threshold-story.js";
import { hidden } from "../../sources/aggregate-diff.js";
function countsBelowPublic(aggregate) {
  return aggregate !== void 0 && aggregate.thresholdPercent < DISCLOSURE_THRESHOLD;
}
function sourceIssuerRow(issuer, namesHolders) {
  const sum = round4(issuer.positions.reduce((total, p) => total + p.percent, 0));
  const under = namesHolders && countsBelowPublic(issuer.aggregate) ? hidden(issuer) : void 0;
  return {
    key: issuer.key,
    name: issuer.name,
    ...issuer.aggregate ? { aggregate: issuer.aggregate } : {},
    named: { count: issuer.positions.length, sum },
    ...under ? { below: under.hidden } : {}
  };
}
function watchedRows(snapshot, watchlist) {
  return snapshot.issuers.filter((issuer) => isWatched(watchlist, issuer)).map((issuer) => sourceIssuerRow(issuer, snapshot.namesHolders)).sort(
    (a, b) => (b.aggregate?.percent ?? -1) - (a.aggregate?.percent ?? -1) || b.named.sum - a.named.sum || a.name.localeCompare(b.name)
  );
}
export {
  countsBelowPublic,
  sourceIssuerRow,
  watchedRows
};
