import { round4 } from '../positions/round.js';
import { findHeader, type HeaderMatch, type HeaderSpec, rowsBelow } from './columns.js';
import { RegisterReadError } from './errors.js';
import type { PositionRow } from './snapshot.js';
import type { Cell } from './types.js';
import { cellText, requireDate, requireIsin, requirePercent } from './values.js';

/** The columns every named-holder table has. */
export type NamedRole = 'holder' | 'issuer' | 'isin' | 'percent' | 'date';

/** How one register lays out its named-holder table. */
export interface NamedTableLayout {
  header: HeaderSpec<NamedRole>;
  /** The issuer's LEI column, where the register gives one. */
  lei?: RegExp;
  /** Header rows to skip below the matched one (CONSOB repeats its header in English). */
  extraHeaderRows?: number;
  /** Rows whose first non-empty cell matches end the table (the AFM's disclaimer trailer). */
  trailer?: RegExp;
  /** Without the trailer the file was cut off (`truncated`). */
  trailerRequired?: boolean;
  /** Where no date header is found, the date is the column after the percent (Sweden: see sweden.ts). */
  dateAfterPercent?: boolean;
}

/** Named positions from one sheet; any row that is not a position makes the file `unparseable`. */
export function namedRows(rows: Cell[][], layout: NamedTableLayout): PositionRow[] {
  const header = findNamedHeader(rows, layout);
  const lei = layout.lei === undefined ? undefined : findHeader(rows, { lei: layout.lei }).columns.lei;
  const body = rowsBelow(rows, header.row + (layout.extraHeaderRows ?? 0));
  const trailer = layout.trailer;
  const end = trailer === undefined ? -1 : body.findIndex((row) => isTrailer(row, trailer));
  if (end < 0 && layout.trailerRequired) {
    throw new RegisterReadError('truncated', 'the file ends before its trailer');
  }
  const c = header.columns;
  const used = Object.values<number>(c);
  // Cells outside the table's columns are not data (Ireland keeps "Last Updated:" in column A).
  const data = (end < 0 ? body : body.slice(0, end)).filter((row) =>
    used.some((index) => cellText(row[index]) !== ''),
  );
  return data.map((row, i) => {
    const where = `data row ${i + 1}`;
    const parsed: PositionRow = {
      isin: requireIsin(row[c.isin], where),
      issuer: cellText(row[c.issuer]),
      holder: cellText(row[c.holder]),
      // Registers publish at most 4 decimals of a per cent.
      percent: round4(requirePercent(row[c.percent], where)),
      date: requireDate(row[c.date], where),
    };
    const leiText = lei === undefined ? '' : cellText(row[lei]);
    if (leiText !== '') parsed.lei = leiText;
    return parsed;
  });
}

function findNamedHeader(rows: Cell[][], layout: NamedTableLayout): HeaderMatch<NamedRole> {
  try {
    return findHeader(rows, layout.header);
  } catch (error) {
    if (!layout.dateAfterPercent) throw error;
    const { date: _date, ...rest } = layout.header;
    const found = findHeader(rows, rest);
    return { row: found.row, columns: { ...found.columns, date: found.columns.percent + 1 } };
  }
}

function isTrailer(row: Cell[], trailer: RegExp): boolean {
  const first = row.find((cell) => cellText(cell) !== '');
  return trailer.test(cellText(first));
}
