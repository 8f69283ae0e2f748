import { holderKey } from "../positions/holder-key.js";
import { round4 } from "../positions/round.js";
import { snapshotOf } from "./snapshot.js";
const SE_AGGREGATE_THRESHOLD = 0.1;
function joinSwedish(current, aggregates, previous) {
  const issuers = new Map(current.issuers.map((issuer) => [issuer.key, { ...issuer }]));
  const shares = sharesByCompany(current.issuers);
  const companies = aggregates.issuers.filter((company) => company.aggregate !== void 0);
  const homes = homesOf(companies, shares, keysByLei(previous));
  for (const [index, company] of companies.entries()) {
    const home = homes[index] ?? { key: company.key };
    const own = (shares.get(holderKey(company.name)) ?? []).filter(
      (share) => share.key === home.key || !homes.some((other) => other.key === share.key)
    );
    const joined = issuers.get(home.key) ?? {
      ...home,
      name: own[0]?.name ?? company.name,
      positions: []
    };
    if (company.lei !== void 0) joined.lei = company.lei;
    const isin = joined.isin ?? own[0]?.isin;
    if (isin !== void 0) joined.isin = isin;
    joined.aggregate = company.aggregate;
    const others = own.filter((share) => share.key !== home.key);
    const elsewhere = namedSum(others);
    if (elsewhere > 0) joined.namedElsewhere = elsewhere;
    const otherIsins = others.flatMap((share) => share.isin === void 0 ? [] : [share.isin]);
    if (otherIsins.length > 0) joined.otherIsins = otherIsins;
    issuers.set(home.key, joined);
  }
  return snapshotOf("se-fi-current", [...issuers.values()], current.rows, {
    aggregateThreshold: SE_AGGREGATE_THRESHOLD
  });
}
function homesOf(companies, shares, keptKey) {
  const kept = companies.map((company) => company.lei === void 0 ? void 0 : keptKey.get(company.lei));
  const homed = new Set(kept.flatMap((home) => home === void 0 ? [] : [home.key]));
  return companies.map((company, index) => {
    const home = kept[index];
    if (home !== void 0) return home;
    const share = shares.get(holderKey(company.name))?.[0];
    if (share === void 0 || homed.has(share.key)) return { key: company.key };
    homed.add(share.key);
    return share;
  });
}
function sharesByCompany(issuers) {
  const byName = /* @__PURE__ */ new Map();
  for (const issuer of [...issuers].sort((a, b) => a.key.localeCompare(b.key))) {
    const name = holderKey(issuer.name);
    byName.set(name, [...byName.get(name) ?? [], issuer]);
  }
  return byName;
}
function keysByLei(previous) {
  const byLei = /* @__PURE__ */ new Map();
  for (const issuer of previous?.issuers ?? []) {
    if (issuer.lei === void 0 || issuer.aggregate === void 0) continue;
    byLei.set(
      issuer.lei,
      issuer.isin === void 0 ? { key: issuer.key } : { key: issuer.key, isin: issuer.isin }
    );
  }
  return byLei;
}
function namedSum(shares) {
  return round4(shares.flatMap((share) => share.positions).reduce((sum, p) => sum + p.percent, 0));
}
export {
  SE_AGGREGATE_THRESHOLD,
  joinSwedish
};
