import { DAY_MS } from '../time/units.js';
import { RegisterReadError } from './errors.js';
import type { Cell } from './types.js';

// Excel's day 0 is 1899-12-30 (the 1900 leap-year bug folded in), in days since the Unix epoch.
const EXCEL_EPOCH_DAYS = -25_569;

/** A cell as trimmed text ('' for empty); registers pad names and dates with spaces. */
export function cellText(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  return String(cell).trim();
}

/**
 * A percentage from a number cell or text with a decimal point or comma (`0,68`, `"1.1"`); `<0,5`
 * (Sweden's history for a closed position) reads as 0. Undefined when the cell holds no number.
 */
export function parsePercent(cell: Cell | undefined): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  const text = cellText(cell).replace(/%$/, '').trim();
  if (/^<\s*0[.,]5$/.test(text)) return 0;
  if (!/^-?\d+([.,]\d+)?$/.test(text)) return undefined;
  return Number(text.replace(',', '.'));
}

/** A date `YYYY-MM-DD` from an Excel serial, ISO text (with a time), `dd/mm/yyyy` or `dd.mm.yyyy`. */
export function parseDate(cell: Cell | undefined): string | undefined {
  if (typeof cell === 'number') return excelSerialDate(cell);
  const text = cellText(cell);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(text);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dmy = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(text);
  if (dmy) return validDate(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]));
  return undefined;
}

/** An Excel serial day number (time of day dropped) as `YYYY-MM-DD`; undefined outside 1900–2200. */
export function excelSerialDate(serial: number): string | undefined {
  if (!Number.isFinite(serial) || serial < 1 || serial > 110_000) return undefined;
  return new Date((Math.floor(serial) + EXCEL_EPOCH_DAYS) * DAY_MS).toISOString().slice(0, 10);
}

function validDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/** The percent of a row, or a `RegisterReadError` naming the row: a number column that holds none. */
export function requirePercent(cell: Cell | undefined, where: string): number {
  const value = parsePercent(cell);
  if (value === undefined || value < 0 || value > 100) {
    throw new RegisterReadError('unparseable', `${where}: "${cellText(cell)}" is not a percentage`);
  }
  return value;
}

/** The date of a row, or a `RegisterReadError` naming the row. */
export function requireDate(cell: Cell | undefined, where: string): string {
  const value = parseDate(cell);
  if (value === undefined) {
    throw new RegisterReadError('unparseable', `${where}: "${cellText(cell)}" is not a date`);
  }
  return value;
}

const ISIN = /^[A-Z]{2}[A-Z0-9]{9}\d$/;

/** True when `text` has the shape of an ISIN (two letters, nine letters or digits, a check digit). */
export function looksLikeIsin(text: string): boolean {
  return ISIN.test(text.trim().toUpperCase());
}

/** The ISIN of a row (upper-cased), or a `RegisterReadError` naming the row. */
export function requireIsin(cell: Cell | undefined, where: string): string {
  const isin = cellText(cell).toUpperCase();
  if (!ISIN.test(isin)) throw new RegisterReadError('unparseable', `${where}: "${isin}" is not an ISIN`);
  return isin;
}
