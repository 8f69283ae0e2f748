import { createRequire } from 'node:module';
import type * as XLSX from '@e965/xlsx';
import { CsvError, parse as parseCsvSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { RegisterReadError } from './errors.js';
import type { Cell, DecodedTable } from './types.js';

/** Text encodings the registers serve. */
export type TextEncoding = 'utf-8' | 'windows-1252';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const ZIP_END_MAGIC = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Bytes as text: a BOM dropped, Windows-1252 (the AFM) mapped to Unicode. Line endings stay. */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding, {
    stripBOM: true,
  });
}

/**
 * A CSV as one sheet of text cells; CRLF and LF alike, rows of any width (trailers have one field).
 * An unclosed quote at the end is a cut-off file (`truncated`); other syntax errors are `unparseable`.
 */
export function decodeCsv(text: string, delimiter: string): DecodedTable {
  try {
    const rows = parseCsvSync(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    }) as string[][];
    return { sheets: [{ name: 'csv', rows }] };
  } catch (error) {
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED') {
      throw new RegisterReadError('truncated', 'the CSV ends inside a quoted field', { cause: error });
    }
    // A header that does not split on this delimiter is another file, not a broken one.
    if (error instanceof CsvError && error.lines === 1) {
      throw new RegisterReadError('wrong-header', `the first line is not this register's header`, {
        cause: error,
      });
    }
    throw new RegisterReadError('unparseable', `not a CSV: ${errorText(error)}`, { cause: error });
  }
}

const requireCjs = createRequire(import.meta.url);
let sheetJsModule: typeof XLSX | undefined;

/**
 * SheetJS, loaded with the first spreadsheet decoded: its some 19 MB of heap are paid only by a process
 * that reads a spreadsheet register, not by every daemon that imports the sources.
 */
function sheetJs(): typeof XLSX {
  sheetJsModule ??= requireCjs('@e965/xlsx') as typeof XLSX;
  return sheetJsModule;
}

/** Which sheets of a workbook a parser reads, and how the read is bounded. */
export interface WorkbookReading {
  /** The sheets kept, by name, among the workbook's (every sheet without). */
  only?: (names: string[]) => string[];
  /**
   * Rows read of each sheet at first (SheetJS `sheetRows`). SheetJS walks a BIFF8 stream whole whatever
   * sheets are asked for, and building the cells of the long sheets no parser reads is half of the
   * CNMV's decode. A kept sheet that reaches the bound is read again whole: no row is ever lost.
   */
  rowsAtFirst?: number;
}

/**
 * An XLSX, ODS (zip) or XLS (BIFF in a compound file) as sheets of cells, with SheetJS 0.20.3.
 * Checks the container first: SheetJS would otherwise read an HTML error page as a table. Blank rows
 * (Sweden pads with 700,000) are dropped; dates stay Excel serials of the 1900 date system, parsed by
 * `parseDate`; a cell shown as a percentage reads as the per cent shown (0.0088 shown as 0.88% is 0.88).
 * What a file may cost is checked before, on its bytes (`shape-bound.ts`), and the call runs in a worker.
 */
export function decodeWorkbook(bytes: Uint8Array, reading: WorkbookReading = {}): DecodedTable {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const zip = startsWith(buffer, ZIP_MAGIC);
  if (!zip && !startsWith(buffer, CFB_MAGIC)) {
    throw new RegisterReadError('unparseable', 'not a spreadsheet (neither a zip nor a compound file)');
  }
  // A zip's directory is at its end: without the end record the download was cut off.
  const endRecord = zip ? buffer.lastIndexOf(ZIP_END_MAGIC) : -1;
  if (zip && endRecord < 0) {
    throw new RegisterReadError('truncated', 'the spreadsheet ends before its zip directory');
  }
  let workbook: XLSX.WorkBook;
  try {
    workbook = readWorkbook(buffer, zip, reading);
  } catch (error) {
    const reason = zip ? 'unparseable' : 'truncated';
    throw new RegisterReadError(reason, `the spreadsheet cannot be read: ${errorText(error)}`, {
      cause: error,
    });
  }
  const names = keptSheets(workbook, reading);
  const date1904 = workbook.Workbook?.WBProps?.date1904 === true;
  return {
    sheets: names.map((name) => ({ name, rows: sheetRows(workbook.Sheets[name], date1904) })),
  };
}

function readWorkbook(buffer: Buffer, zip: boolean, reading: WorkbookReading): XLSX.WorkBook {
  // Values only: no formulas, formatted text or HTML are built for cells the parsers read by value.
  // `cellNF` keeps each cell's number format (dates and percentages are told by it); `nodim` makes the
  // range walked the one the cells span, not the one the file declares (the cap counts that range).
  const options: XLSX.ParsingOptions = {
    type: 'buffer',
    dense: true,
    cellFormula: false,
    cellHTML: false,
    cellText: false,
    cellNF: true,
    nodim: true,
  };
  // In a zip SheetJS parses only the sheets asked for: CONSOB's 22,000 historic rows are skipped (4 s
  // of 5). A BIFF8 stream is walked whole anyway, so it is not asked for its names first.
  if (zip && reading.only !== undefined)
    options.sheets = reading.only(sheetJs().read(buffer, { type: 'buffer', bookSheets: true }).SheetNames);
  const rows = reading.rowsAtFirst;
  if (rows === undefined) return sheetJs().read(buffer, options);
  const bounded = sheetJs().read(buffer, { ...options, sheetRows: rows });
  const cut = keptSheets(bounded, reading).some((name) => reachesBound(bounded.Sheets[name], rows));
  return cut ? sheetJs().read(buffer, options) : bounded;
}

/** The sheets the parser reads, in workbook order (SheetJS returns every sheet of a BIFF8 file). */
function keptSheets(workbook: XLSX.WorkBook, reading: WorkbookReading): string[] {
  const names = workbook.SheetNames.filter((name) => workbook.Sheets[name] !== undefined);
  if (reading.only === undefined) return names;
  const kept = new Set(reading.only(workbook.SheetNames));
  return names.filter((name) => kept.has(name));
}

/** True when a sheet read with `sheetRows` may have lost rows: it was cut, or it ends at the bound. */
function reachesBound(sheet: XLSX.WorkSheet | undefined, rows: number): boolean {
  if (sheet === undefined) return false;
  if (sheet['!fullref'] !== undefined) return true;
  const ref = sheet['!ref'];
  return ref !== undefined && sheetJs().utils.decode_range(ref).e.r >= rows - 1;
}

function sheetRows(sheet: XLSX.WorkSheet | undefined, date1904: boolean): Cell[][] {
  if (sheet === undefined) return [];
  for (const row of sheet['!data'] ?? []) for (const cell of row ?? []) if (cell) asShown(cell, date1904);
  // Without `cellDates` SheetJS yields no Date cells: dates stay serial numbers.
  return sheetJs().utils.sheet_to_json<Cell[]>(sheet, {
    header: 1,
    raw: true,
    blankrows: false,
    defval: null,
  });
}

// A workbook in the 1904 date system counts days from 1904-01-01: 1,462 days after the 1900 system's day 0.
const DAYS_1900_TO_1904 = 1_462;

/**
 * A number cell as the 1900 date system and per cent: the values every parser reads. The format is then
 * dropped: with it `sheet_to_json` would turn a date cell into a `Date`, where parsers read serials.
 */
function asShown(cell: XLSX.CellObject, date1904: boolean): void {
  const format = cell.z;
  delete cell.z;
  if (cell.t !== 'n' || typeof cell.v !== 'number' || typeof format !== 'string') return;
  // The format's literal text (quoted, escaped, or in brackets: a colour, a locale) is not its shape.
  const shape = format.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');
  if (shape.includes('%')) cell.v = Number((cell.v * 100).toPrecision(12));
  else if (date1904 && sheetJs().SSF.is_date(format)) cell.v += DAYS_1900_TO_1904;
}

function startsWith(buffer: Buffer, magic: readonly number[]): boolean {
  return magic.every((byte, i) => buffer[i] === byte);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
