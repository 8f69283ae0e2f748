import { holderKey } from "../positions/holder-key.js";
import { DISCLOSURE_THRESHOLD } from "../positions/threshold-story.js";
function issuersFromPositions(rows, history = false) {
  const byIsin = /* @__PURE__ */ new Map();
  for (const row of rows) {
    let entry = byIsin.get(row.isin);
    if (entry === void 0) {
      entry = { issuer: issuerOfRow(row, history), latest: /* @__PURE__ */ new Map() };
      byIsin.set(row.isin, entry);
    }
    const position = namedPosition(row.holder, row.percent, row.date);
    entry.issuer.history?.push(position);
    const seen = entry.latest.get(position.holderKey);
    if (seen === void 0 || row.date > seen.date) entry.latest.set(position.holderKey, row);
  }
  return [...byIsin.values()].map(({ issuer, latest }) => {
    issuer.positions = [...latest.values()].filter((row) => !history || isHeld(row)).map((row) => namedPosition(row.holder, row.percent, row.date)).sort(byPercentThenKey);
    issuer.history?.sort((a, b) => a.date.localeCompare(b.date) || a.holderKey.localeCompare(b.holderKey));
    return issuer;
  });
}
function isHeld(row) {
  return row.percent >= DISCLOSURE_THRESHOLD && row.replacedOn === void 0;
}
function issuerOfRow(row, history) {
  const issuer = { key: row.isin, isin: row.isin, name: row.issuer, positions: [] };
  if (row.lei !== void 0) issuer.lei = row.lei;
  if (history) issuer.history = [];
  return issuer;
}
function namedPosition(holder, percent, date) {
  const name = holder.trim().replace(/\s+/g, " ");
  return { holder: name, holderKey: holderKey(name), percent, date };
}
function aggregateIssuer(id, aggregate) {
  const key = id.isin ?? `lei:${id.lei ?? ""}`;
  const issuer = { key, name: id.name.trim(), positions: [], aggregate };
  if (id.isin !== void 0) issuer.isin = id.isin;
  if (id.lei !== void 0) issuer.lei = id.lei;
  return issuer;
}
function snapshotOf(kind, issuers, rows, extra = {}) {
  const snapshot = {
    kind,
    content: extra.content ?? "positions",
    issuers: [...issuers].sort((a, b) => a.key.localeCompare(b.key)),
    rows,
    namesHolders: extra.namesHolders ?? true
  };
  if (extra.publishedOn !== void 0) snapshot.publishedOn = extra.publishedOn;
  if (extra.aggregateThreshold !== void 0) snapshot.aggregateThreshold = extra.aggregateThreshold;
  return snapshot;
}
function byPercentThenKey(a, b) {
  return b.percent - a.percent || a.holderKey.localeCompare(b.holderKey);
}
function issuersFromPoints(rows, current) {
  const byIsin = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const issuer = byIsin.get(row.isin) ?? {
      key: row.isin,
      isin: row.isin,
      name: row.name,
      positions: [],
      aggregateHistory: []
    };
    issuer.aggregateHistory.push(row.point);
    byIsin.set(row.isin, issuer);
  }
  return [...byIsin.values()].map((issuer) => {
    issuer.aggregateHistory.sort((a, b) => a.date.localeCompare(b.date));
    const latest = issuer.aggregateHistory.at(-1);
    if (current && latest && latest.percent > 0) {
      issuer.aggregate = {
        percent: latest.percent,
        date: latest.date,
        thresholdPercent: current.thresholdPercent
      };
    }
    return issuer;
  });
}
export {
  aggregateIssuer,
  issuerOfRow,
  issuersFromPoints,
  issuersFromPositions,
  namedPosition,
  snapshotOf
};
