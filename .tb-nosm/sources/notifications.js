import { DISCLOSURE_THRESHOLD } from "../positions/threshold-story.js";
import { issuerOfRow, namedPosition } from "./snapshot.js";
function issuersFromNotifications(rows, history) {
  const byIsin = /* @__PURE__ */ new Map();
  rows.forEach((row, order) => {
    let entry = byIsin.get(row.isin);
    if (entry === void 0) {
      entry = { issuer: issuerOfRow(row, history), latest: /* @__PURE__ */ new Map() };
      byIsin.set(row.isin, entry);
    }
    const position = notified(row);
    entry.issuer.history?.push(position);
    const seen = entry.latest.get(position.holderKey);
    const ranked = {
      position,
      order,
      held: row.ended !== true && row.percent >= DISCLOSURE_THRESHOLD
    };
    if (seen === void 0 || later(ranked, seen)) entry.latest.set(position.holderKey, ranked);
  });
  return [...byIsin.values()].map(({ issuer, latest }) => {
    issuer.positions = [...latest.values()].filter((ranked) => ranked.held).map((ranked) => ranked.position).sort((a, b) => b.percent - a.percent || a.holderKey.localeCompare(b.holderKey));
    issuer.history?.sort((a, b) => a.date.localeCompare(b.date) || a.holderKey.localeCompare(b.holderKey));
    return issuer;
  });
}
function later(candidate, seen) {
  const a = candidate.position;
  const b = seen.position;
  if (a.date !== b.date) return a.date > b.date;
  const reported = (a.reportedOn ?? "").localeCompare(b.reportedOn ?? "");
  return reported !== 0 ? reported > 0 : candidate.order < seen.order;
}
function notified(row) {
  const position = namedPosition(row.holder, row.percent, row.date);
  if (row.reportedOn !== void 0) position.reportedOn = row.reportedOn;
  if (row.holderLei !== void 0) position.holderLei = row.holderLei;
  return position;
}
export {
  issuersFromNotifications
};
