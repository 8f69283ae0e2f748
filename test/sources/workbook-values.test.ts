// Cells read as a person sees them: a date of a workbook in the 1904 date system, and a per cent whether
// the register stores it as a fraction shown as a percentage (the Central Bank of Ireland today) or as
// the plain per-cent number.
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { decodeWorkbook } from '../../src/sources/decode.js';
import { REGISTER_READERS } from '../../src/sources/registers.js';
import { parseDate } from '../../src/sources/values.js';
import { DAY_MS } from '../../src/time/units.js';

/** The serial of `iso` in the 1900 date system (day 0 is 1899-12-30). */
const serial1900 = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS + 25_569;

function workbook(rows: XLSX.CellObject[][], options: { date1904?: boolean; bookType?: XLSX.BookType } = {}) {
  const book = XLSX.utils.book_new();
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  XLSX.utils.book_append_sheet(book, sheet, 'Current');
  if (options.date1904) book.Workbook = { WBProps: { date1904: true } };
  return Buffer.from(
    XLSX.write(book, { type: 'buffer', bookType: options.bookType ?? 'xlsx' }) as Uint8Array,
  );
}

describe('decodeWorkbook reads dates in the date system the workbook states', () => {
  it.each(['xlsx', 'biff8'] as const)(
    'a 1904 %s workbook reads its dates, not four years off',
    (bookType) => {
      const cell: XLSX.CellObject = { t: 'n', v: serial1900('2026-09-15') - 1_462, z: 'yyyy-mm-dd' };
      const [row] = decodeWorkbook(workbook([[cell]], { date1904: true, bookType })).sheets[0]?.rows ?? [];
      expect(parseDate(row?.[0])).toBe('2026-09-15');
    },
  );

  it('a 1900 workbook reads as before, and a plain number in a 1904 one is not moved', () => {
    const date: XLSX.CellObject = { t: 'n', v: serial1900('2026-09-15'), z: 'yyyy-mm-dd' };
    expect(parseDate(decodeWorkbook(workbook([[date]])).sheets[0]?.rows[0]?.[0])).toBe('2026-09-15');
    const plain: XLSX.CellObject = { t: 'n', v: 1.25, z: '0.00' };
    expect(decodeWorkbook(workbook([[plain]], { date1904: true })).sheets[0]?.rows[0]?.[0]).toBe(1.25);
  });
});

/** A current sheet of the CBI's layout with one position whose percent cell is `percent`. */
function cbiWorkbook(percent: XLSX.CellObject): Buffer {
  const text = (v: string): XLSX.CellObject => ({ t: 's', v });
  return workbook([
    [
      text('Position Holder:'),
      text('Name of the Issuer:'),
      text('ISIN:'),
      text('Net Short Position %:'),
      text('Position Date:'),
    ],
    [
      text('Marshall Wace LLP'),
      text('Bank of Ireland Group plc'),
      text('IE00BD1RP616'),
      percent,
      { t: 'n', v: serial1900('2026-09-14'), z: 'yyyy\\-mm\\-dd;@' },
    ],
  ]);
}

describe('the CBI reader takes the per cent a cell shows', () => {
  it.each([
    ['a fraction shown as a percentage (as served today)', { t: 'n', v: 0.0088, z: '0.00%' }],
    ['a plain per-cent number (were the CBI to switch)', { t: 'n', v: 0.88, z: '0.00' }],
    ['a plain per-cent number in the General format', { t: 'n', v: 0.88 }],
  ] satisfies [string, XLSX.CellObject][])('%s reads 0.88', (_name, cell) => {
    const snapshot = REGISTER_READERS['ie-cbi'].read(cbiWorkbook(cell));
    expect(snapshot.issuers[0]?.positions.map((p) => [p.percent, p.date])).toEqual([[0.88, '2026-09-14']]);
  });
});
