import { findHeader, rowsBelow } from "../columns.js";
import { namedRows } from "../named-table.js";
import { readerOf, sheet, workbookDecoder } from "../reader.js";
import { aggregateIssuer, issuersFromPositions, snapshotOf } from "../snapshot.js";
import { SE_AGGREGATE_THRESHOLD } from "../sweden-join.js";
import { cellText, requireDate, requirePercent } from "../values.js";
const CURRENT = {
  header: {
    holder: /\(position holder\)$/,
    issuer: /\(name of the issuer\)$/,
    isin: /^isin$/,
    percent: /\(position in per cent\)$/,
    date: /\(position date\)$/
  },
  dateAfterPercent: true
};
function parseCurrent(table) {
  const rows = namedRows(sheet(table, { index: 0 }).rows, CURRENT);
  return snapshotOf("se-fi-current", issuersFromPositions(rows), rows.length);
}
function parseAggregate(table) {
  const all = sheet(table, { index: 0 }).rows;
  const header = findHeader(all, {
    name: /\(name of the issuer\)$/,
    lei: /^lei$/,
    percent: /\(position in per cent\)$/,
    date: /\(latest position over 0\.5%\)$/
  });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const issuers = rows.map(
    (row, i) => (
      // Every issuer name has a leading space; aggregateIssuer trims it.
      aggregateIssuer(
        { lei: cellText(row[c.lei]), name: cellText(row[c.name]) },
        {
          percent: requirePercent(row[c.percent], `row ${i + 1}`),
          date: requireDate(row[c.date], `row ${i + 1}`),
          thresholdPercent: SE_AGGREGATE_THRESHOLD
        }
      )
    )
  );
  return snapshotOf("se-fi-aggregate", issuers, rows.length, {
    namesHolders: false,
    aggregateThreshold: SE_AGGREGATE_THRESHOLD
  });
}
const swedenCurrent = readerOf({ decode: workbookDecoder(), parse: parseCurrent });
const swedenAggregate = readerOf({ decode: workbookDecoder(), parse: parseAggregate });
export {
  swedenAggregate,
  swedenCurrent
};
