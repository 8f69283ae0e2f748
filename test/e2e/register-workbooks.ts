import * as XLSX from '@e965/xlsx';

// Editing a register's spreadsheet the way its publisher would: the whole workbook read (every sheet,
// cell types and number formats kept), a few cells changed or rows moved, then written back by SheetJS
// in the same format. Dense mode: a sheet is `!data`, rows of cells.

/** What the registers serve: XLSX (FCA legacy, CONSOB, CBI), BIFF8 XLS (CNMV), ODS (Sweden). */
export type WorkbookFormat = 'xlsx' | 'biff8' | 'ods';

/** A workbook fixture read whole for editing: every sheet, with its cells' types and number formats. */
export function readWorkbook(bytes: Buffer): XLSX.WorkBook {
  return XLSX.read(bytes, { type: 'buffer', dense: true, cellNF: true });
}

/**
 * `book` written as `format`: zip compressed and strings in a shared table, as Excel writes them (the
 * CNMV's BIFF8 keeps its strings in the SST).
 */
export function writeWorkbook(book: XLSX.WorkBook, format: WorkbookFormat): Buffer {
  // SheetJS's dense writers expect a row array at every row of the sheet's range.
  for (const name of book.SheetNames) {
    const sheet = book.Sheets[name];
    const data = sheet?.['!data'];
    const ref = sheet?.['!ref'];
    if (data === undefined || ref === undefined) continue;
    const last = XLSX.utils.decode_range(ref).e.r;
    for (let r = 0; r <= last; r++) data[r] ??= [];
  }
  const out = XLSX.write(book, { type: 'buffer', bookType: format, compression: true, bookSST: true });
  return Buffer.from(out as Uint8Array);
}

/** The sheet at `pick` (a position) or whose trimmed name `pick` matches. */
export function sheetOf(book: XLSX.WorkBook, pick: number | RegExp): XLSX.WorkSheet {
  const name =
    typeof pick === 'number' ? book.SheetNames[pick] : book.SheetNames.find((n) => pick.test(n.trim()));
  const sheet = name === undefined ? undefined : book.Sheets[name];
  if (sheet === undefined) throw new Error(`the workbook has no sheet ${String(pick)}`);
  return sheet;
}

/** Renames the sheet at `index`, keeping its place (registers put the refresh date in sheet names). */
export function renameSheet(book: XLSX.WorkBook, index: number, name: string): void {
  const old = book.SheetNames[index];
  const sheet = old === undefined ? undefined : book.Sheets[old];
  if (old === undefined || sheet === undefined) throw new Error(`the workbook has no sheet ${index}`);
  delete book.Sheets[old];
  book.Sheets[name] = sheet;
  book.SheetNames[index] = name;
}

function rowsOf(sheet: XLSX.WorkSheet): XLSX.CellObject[][] {
  const data = sheet['!data'];
  if (data === undefined) throw new Error('the sheet was not read in dense mode');
  return data;
}

/** The index of the one row whose cells hold every value of `values` (a failure unless exactly one). */
export function findRow(sheet: XLSX.WorkSheet, ...values: (string | number)[]): number {
  const rows = rowsOf(sheet);
  const found = rows.flatMap((row, r) =>
    values.every((value) => (row ?? []).some((cell) => cell?.v === value)) ? [r] : [],
  );
  if (found.length !== 1) throw new Error(`${found.length} rows hold ${values.join(', ')}`);
  return found[0] ?? -1;
}

/** The indexes of every row holding `value`, last first (so that removing them in order is safe). */
export function rowsWith(sheet: XLSX.WorkSheet, value: string | number): number[] {
  return rowsOf(sheet)
    .flatMap((row, r) => ((row ?? []).some((cell) => cell?.v === value) ? [r] : []))
    .reverse();
}

/** Sets the cell at row `r`, column `c` to `value`, keeping its type and number format. */
export function setValue(sheet: XLSX.WorkSheet, r: number, c: number, value: string | number): void {
  const cell = rowsOf(sheet)[r]?.[c];
  if (cell === undefined) throw new Error(`no cell at row ${r}, column ${c}`);
  if (typeof value !== typeof cell.v) throw new Error(`cell ${r},${c} holds a ${typeof cell.v}`);
  cell.v = value;
  // The formatted text would otherwise show the old value to a reader that uses it.
  delete cell.w;
}

/** Removes row `r`: the rows below move up one and the sheet's range ends one row sooner. */
export function removeRow(sheet: XLSX.WorkSheet, r: number): void {
  rowsOf(sheet).splice(r, 1);
  resize(sheet, -1);
}

/** Fills the blank row `r` with a copy of row `like` (types and formats) holding `values`. */
export function putRow(
  sheet: XLSX.WorkSheet,
  r: number,
  like: number,
  values: readonly (string | number)[],
): void {
  const rows = rowsOf(sheet);
  if ((rows[r] ?? []).some((cell) => cell?.v !== undefined)) throw new Error(`row ${r} is not blank`);
  const template = rows[like] ?? [];
  const row = template.map((cell) => ({ ...cell }));
  // The values go from the row's first cell on (Ireland's table starts in column B).
  const first = template.findIndex((cell) => cell?.v !== undefined);
  values.forEach((value, i) => {
    const cell = row[first + i];
    if (cell === undefined || typeof cell.v !== typeof value) throw new Error(`column ${first + i} differs`);
    cell.v = value;
    delete cell.w;
  });
  rows[r] = row;
}

function resize(sheet: XLSX.WorkSheet, rows: number): void {
  const ref = sheet['!ref'];
  if (ref === undefined) return;
  const range = XLSX.utils.decode_range(ref);
  range.e.r += rows;
  sheet['!ref'] = XLSX.utils.encode_range(range);
}
