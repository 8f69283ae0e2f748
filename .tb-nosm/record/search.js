import { holderQueryMatches } from "../positions/index.js";
function issuerQueryMatches(query, issuer) {
  return issuer.id.toLowerCase() === query.toLowerCase() || holderQueryMatches(query, issuer.name);
}
function recordMatches(row, query) {
  if (query.channel && row.channel !== query.channel) return false;
  const issuer = query.issuer?.trim();
  if (issuer && !row.issuers.some((i) => issuerQueryMatches(issuer, i))) return false;
  const holder = query.holder?.trim();
  if (holder && !row.holders.some((name) => holderQueryMatches(holder, name))) return false;
  return true;
}
async function* matchingPages(record, query) {
  for await (const page of record.pages(query.sinceMs, query.untilMs)) {
    const rows = page.filter((row) => recordMatches(row, query));
    if (rows.length > 0) yield rows;
  }
}
async function searchNewest(record, query, limit, maxScanned) {
  const rows = [];
  let scanned = 0;
  for await (const page of record.pages(query.sinceMs, query.untilMs, true)) {
    for (const row of page) {
      if (recordMatches(row, query)) rows.push(row);
      if (rows.length >= limit) return { rows, cut: false };
    }
    scanned += page.length;
    if (scanned >= maxScanned) return { rows, cut: true };
  }
  return { rows, cut: false };
}
export {
  matchingPages,
  recordMatches,
  searchNewest
};
