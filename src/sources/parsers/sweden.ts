import { findHeader, rowsBelow } from '../columns.js';
import { type NamedTableLayout, namedRows } from '../named-table.js';
import { readerOf, sheet, workbookDecoder } from '../reader.js';
import { aggregateIssuer, issuersFromPositions, snapshotOf } from '../snapshot.js';
import { SE_AGGREGATE_THRESHOLD } from '../sweden-join.js';
import type { DecodedTable, RegisterSnapshot } from '../types.js';
import { cellText, requireDate, requirePercent } from '../values.js';

// Bilingual headers ("Namn på emittent\n(Name of the issuer)"). SheetJS drops the text of the
// "Datum för positionen" header cell of AktuellaPositioner.ods (a `<text:s/>` closing its first
// paragraph), so the date is the column after the percent when its header reads as empty.
const CURRENT: NamedTableLayout = {
  header: {
    holder: /\(position holder\)$/,
    issuer: /\(name of the issuer\)$/,
    isin: /^isin$/,
    percent: /\(position in per cent\)$/,
    date: /\(position date\)$/,
  },
  dateAfterPercent: true,
};

function parseCurrent(table: DecodedTable): RegisterSnapshot {
  const rows = namedRows(sheet(table, { index: 0 }).rows, CURRENT);
  return snapshotOf('se-fi-current', issuersFromPositions(rows), rows.length);
}

function parseAggregate(table: DecodedTable): RegisterSnapshot {
  const all = sheet(table, { index: 0 }).rows;
  const header = findHeader(all, {
    name: /\(name of the issuer\)$/,
    lei: /^lei$/,
    percent: /\(position in per cent\)$/,
    date: /\(latest position over 0\.5%\)$/,
  });
  const c = header.columns;
  const rows = rowsBelow(all, header.row);
  const issuers = rows.map((row, i) =>
    // Every issuer name has a leading space; aggregateIssuer trims it.
    aggregateIssuer(
      { lei: cellText(row[c.lei]), name: cellText(row[c.name]) },
      {
        percent: requirePercent(row[c.percent], `row ${i + 1}`),
        date: requireDate(row[c.date], `row ${i + 1}`),
        thresholdPercent: SE_AGGREGATE_THRESHOLD,
      },
    ),
  );
  return snapshotOf('se-fi-aggregate', issuers, rows.length, {
    namesHolders: false,
    aggregateThreshold: SE_AGGREGATE_THRESHOLD,
  });
}

/** FI's `AktuellaPositioner.ods`: named positions from 0.5%. */
export const swedenCurrent = readerOf({ decode: workbookDecoder(), parse: parseCurrent });

/** FI's `Blankningsregisteraggregat.ods`: one aggregate per issuer (by LEI), from 0.1%. */
export const swedenAggregate = readerOf({ decode: workbookDecoder(), parse: parseAggregate });
