import { decodeCsv, decodeText, decodeWorkbook, type TextEncoding, type WorkbookReading } from './decode.js';
import { RegisterReadError } from './errors.js';
import type { DecodedTable, RegisterSnapshot } from './types.js';

/**
 * One register's pure half (Gatus' provider shape): `decode` turns the bytes served into cells or
 * JSON, `parse` turns those into a snapshot. Both throw `RegisterReadError` with the reason.
 */
export interface RegisterReader<D> {
  decode(bytes: Uint8Array): D;
  parse(decoded: D): RegisterSnapshot;
}

/** A reader with its decoded type erased: what the registry and the health check hold. */
export interface AnyRegisterReader {
  read(bytes: Uint8Array): RegisterSnapshot;
  /** The register is an HTML page (KNF): the health check leaves telling a page from an error page to it. */
  readsHtml?: boolean;
}

/** Erases a reader's decoded type behind `read`. */
export function readerOf<D>(reader: RegisterReader<D>): AnyRegisterReader & RegisterReader<D> {
  return { ...reader, read: (bytes) => reader.parse(reader.decode(bytes)) };
}

/** A decoder for CSV files in `encoding` split on `delimiter`. */
export function csvDecoder(encoding: TextEncoding, delimiter: string): (bytes: Uint8Array) => DecodedTable {
  return (bytes) => decodeCsv(decodeText(bytes, encoding), delimiter);
}

/** A sheet by position, or by a pattern on its trimmed name (registers put dates in sheet names). */
export type SheetPick = { index: number } | { name: RegExp };

/** Which sheets a spreadsheet reader decodes, and the rows of each read at first. */
export interface WorkbookDecoding {
  /** The sheets decoded (every sheet without); an index counts among the workbook's sheets. */
  sheets?: SheetPick[];
  /** See `WorkbookReading.rowsAtFirst`: a bound that makes a long BIFF8 file cheaper, never lossy. */
  rowsAtFirst?: number;
}

/** The spreadsheet decoder (XLSX, XLS, ODS), reading only the sheets `decoding` names. */
export function workbookDecoder(decoding: WorkbookDecoding = {}): (bytes: Uint8Array) => DecodedTable {
  const { sheets: picks, rowsAtFirst } = decoding;
  const reading: WorkbookReading = rowsAtFirst === undefined ? {} : { rowsAtFirst };
  if (picks !== undefined && picks.length > 0)
    reading.only = (names) => names.filter((name, index) => picks.some((pick) => matches(pick, name, index)));
  return (bytes) => decodeWorkbook(bytes, reading);
}

function matches(pick: SheetPick, name: string, index: number): boolean {
  return 'index' in pick ? pick.index === index : pick.name.test(name.trim());
}

/** The sheet `pick` names among those decoded (an index counts among the decoded sheets). */
export function sheet(table: DecodedTable, pick: SheetPick): DecodedTable['sheets'][number] {
  const found =
    'index' in pick ? table.sheets[pick.index] : table.sheets.find((s) => pick.name.test(s.name.trim()));
  if (found === undefined)
    throw new RegisterReadError('wrong-header', 'the workbook lacks the expected sheet');
  return found;
}
