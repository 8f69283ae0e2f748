import { RegisterReadError } from './errors.js';
import type { Cell } from './types.js';
import { cellText } from './values.js';

/** Header matchers by column role: each matches one header cell (lower-cased, spaces collapsed). */
export type HeaderSpec<R extends string> = Record<R, RegExp>;

/** Where the header row is and which column holds each role. */
export interface HeaderMatch<R extends string> {
  row: number;
  columns: Record<R, number>;
}

/** A header cell as compared: lower case, any run of white space (line breaks too) one space. */
export function headerText(cell: Cell | undefined): string {
  return cellText(cell).toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The first of the top `scan` rows in which every role of `spec` matches a cell, or a
 * `wrong-header` error: the file is not what this parser reads (or its layout changed).
 */
export function findHeader<R extends string>(rows: Cell[][], spec: HeaderSpec<R>, scan = 12): HeaderMatch<R> {
  const roles = Object.keys(spec) as R[];
  for (let row = 0; row < Math.min(scan, rows.length); row++) {
    const cells = (rows[row] ?? []).map(headerText);
    const columns = {} as Record<R, number>;
    let matched = 0;
    for (const role of roles) {
      const index = cells.findIndex((text) => spec[role].test(text));
      if (index < 0) break;
      columns[role] = index;
      matched++;
    }
    if (matched === roles.length) return { row, columns };
  }
  throw new RegisterReadError(
    'wrong-header',
    `no header row with ${roles.join(', ')} in the first ${scan} rows`,
  );
}

/** The data rows under a header: every row after it with at least one non-empty cell. */
export function rowsBelow(rows: Cell[][], header: number): Cell[][] {
  return rows.slice(header + 1).filter((row) => row.some((cell) => cellText(cell) !== ''));
}
