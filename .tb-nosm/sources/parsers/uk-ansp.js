import { findHeader, rowsBelow } from "../columns.js";
import { csvDecoder, readerOf } from "../reader.js";
import { aggregateIssuer, issuersFromPoints, snapshotOf } from "../snapshot.js";
import { cellText, parseDate, requireDate, requireIsin, requirePercent } from "../values.js";
const UK_ANSP_THRESHOLD = 0.2;
const ANSP = {
  name: /^name of company/,
  isin: /isin/,
  percent: /^aggregated net short position/,
  date: /^position date/
};
const decode = csvDecoder("utf-8", ",");
const ANSP_SNAPSHOT = { namesHolders: false, aggregateThreshold: UK_ANSP_THRESHOLD };
function parseCurrent(table) {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, ANSP);
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const issuers = rows.map((row, i) => {
    const where = `row ${i + 1}`;
    return aggregateIssuer(
      { isin: requireIsin(row[c.isin], where), name: cellText(row[c.name]) },
      {
        percent: requirePercent(row[c.percent], where),
        date: requireDate(row[c.date], where),
        thresholdPercent: UK_ANSP_THRESHOLD
      }
    );
  });
  return snapshotOf("uk-ansp-current", issuers, rows.length, ANSP_SNAPSHOT);
}
function parseHistoric(table) {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, { ...ANSP, ended: /became historical/ });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const points = rows.map((row, i) => {
    const where = `row ${i + 1}`;
    const point = {
      date: requireDate(row[c.date], where),
      percent: requirePercent(row[c.percent], where)
    };
    const endedOn = parseDate(row[c.ended]);
    if (endedOn !== void 0) point.endedOn = endedOn;
    return { isin: requireIsin(row[c.isin], where), name: cellText(row[c.name]), point };
  });
  const issuers = issuersFromPoints(points);
  return snapshotOf("uk-ansp-historic", issuers, rows.length, ANSP_SNAPSHOT);
}
function parseReportableShares(table) {
  const all = table.sheets[0]?.rows ?? [];
  const header = findHeader(all, { isin: /isin/, name: /^company name/, shareClass: /^class of share/ });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const issuers = rows.map((row, i) => {
    const isin = requireIsin(row[c.isin], `row ${i + 1}`);
    return { key: isin, isin, name: cellText(row[c.name]), positions: [] };
  });
  return snapshotOf("uk-reportable-shares", issuers, rows.length, { content: "scope", namesHolders: false });
}
const ukAnspCurrent = readerOf({ decode, parse: parseCurrent });
const ukAnspHistoric = readerOf({ decode, parse: parseHistoric });
const ukReportableShares = readerOf({ decode, parse: parseReportableShares });
export {
  ukAnspCurrent,
  ukAnspHistoric,
  ukReportableShares
};
