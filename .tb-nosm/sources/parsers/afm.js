import { namedRows } from "../named-table.js";
import { csvDecoder, readerOf } from "../reader.js";
import { issuersFromPositions, snapshotOf } from "../snapshot.js";
import { cellText } from "../values.js";
const LAYOUT = {
  header: {
    holder: /^(position holder|positie houder)$/,
    issuer: /^(name of the issuer|naam van de emittent)$/,
    isin: /^isin$/,
    percent: /^(net short position|netto shortpositie)$/,
    date: /^(position date|positiedatum)$/
  },
  trailer: /^disclaimer/i,
  trailerRequired: true
};
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
function afmUpdatedOn(table) {
  const rows = table.sheets[0]?.rows ?? [];
  for (const row of rows.slice(-3)) {
    const match = /update (\d{2}) ([A-Za-z]{3}) (\d{4})$/.exec(cellText(row[0]));
    const month = match === null ? -1 : MONTHS.indexOf((match[2] ?? "").toLowerCase());
    if (match !== null && month >= 0) return `${match[3]}-${String(month + 1).padStart(2, "0")}-${match[1]}`;
  }
  return void 0;
}
function parseAfm(kind, table) {
  const rows = namedRows(table.sheets[0]?.rows ?? [], LAYOUT);
  const issuers = issuersFromPositions(rows, kind === "afm-history");
  return snapshotOf(kind, issuers, rows.length, { publishedOn: afmUpdatedOn(table) });
}
const decode = csvDecoder("windows-1252", ";");
const afmCurrent = readerOf({ decode, parse: (table) => parseAfm("afm-current", table) });
const afmHistory = readerOf({ decode, parse: (table) => parseAfm("afm-history", table) });
export {
  afmCurrent,
  afmHistory,
  afmUpdatedOn
};
