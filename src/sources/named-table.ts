import { round4 } from '../positions/round.js';
import { findHeader, type HeaderMatch, type HeaderSpec, headerText, rowsBelow } from './columns.js';
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
  /** The column of the date a later notification replaced the row, where a history gives one (the FSMA's). */
  replacedOn?: RegExp;
}

/** Named positions from one sheet; any row that is not a position makes the file `unparseable`. */
export function namedRows(rows: Cell[][], layout: NamedTableLayout): PositionRow[] {
  return namedRowsWithCells(rows, layout).map(({ row }) => row);
}

/** Named positions with the cells each was read from, and the header row (for a register's extra columns). */
export function namedRowsWithCells(
  rows: Cell[][],
  layout: NamedTableLayout,
): { row: PositionRow; cells: Cell[]; header: number }[] {
  const header = findNamedHeader(rows, layout);
  const lei = layout.lei === undefined ? undefined : findHeader(rows, { lei: layout.lei }).columns.lei;
  const replaced =
    layout.replacedOn === undefined ? undefined : findHeader(rows, { on: layout.replacedOn }).columns.on;
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
  return data.map((cells, i) => {
    const where = `data row ${i + 1}`;
    const parsed: PositionRow = {
      isin: requireIsin(cells[c.isin], where),
      issuer: cellText(cells[c.issuer]),
      holder: cellText(cells[c.holder]),
      // Registers publish at most 4 decimals of a per cent.
      percent: round4(requirePercent(cells[c.percent], where)),
      date: requireDate(cells[c.date], where),
    };
    const leiText = lei === undefined ? '' : cellText(cells[lei]);
    if (leiText !== '') parsed.lei = leiText;
    // Empty while the row is current; anything else must be a date, or the history cannot be judged.
    if (replaced !== undefined && cellText(cells[replaced]) !== '')
      parsed.replacedOn = requireDate(cells[replaced], where);
    return { row: parsed, cells, header: header.row };
  });
}

/** The column of the header row `header` that matches `pattern`, or undefined (an optional column). */
export function optionalColumn(rows: Cell[][], header: number, pattern: RegExp): number | undefined {
  const index = (rows[header] ?? []).map(headerText).findIndex((text) => pattern.test(text));
  return index < 0 ? undefined : index;
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
