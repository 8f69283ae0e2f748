import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { decodeWorkbook } from '../../src/sources/decode.js';
import { registerBytes } from '../helpers/register-fixtures.js';

/** A BIFF8 workbook like the CNMV's: a date sheet, a current sheet of `rows` rows, a long past sheet. */
function biff8(rows: number): Buffer {
  const book = XLSX.utils.book_new();
  const table = (n: number) => [
    ['Holder', '%'],
    ...Array.from({ length: n }, (_, i) => [`Holder ${i}`, 0.5 + i]),
  ];
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Date'], [' 2025-08-12 ']]), 'Date');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(table(rows)), 'Current');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(table(50)), 'Previous');
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Uint8Array);
}

const notPrevious = (names: string[]) => names.filter((name) => name !== 'Previous');

describe('decodeWorkbook: rowsAtFirst bounds the first read, never the rows returned', () => {
  it.each([
    { name: 'a current sheet under the bound', rows: 5 },
    { name: 'a current sheet ending on the bound (read again whole)', rows: 9 },
    { name: 'a current sheet past the bound (read again whole)', rows: 30 },
  ])('$name', ({ rows }) => {
    const table = decodeWorkbook(biff8(rows), { only: notPrevious, rowsAtFirst: 10 });
    // Only the sheets asked for, though SheetJS returns every sheet of a BIFF8 file.
    expect(table.sheets.map((sheet) => sheet.name)).toEqual(['Date', 'Current']);
    expect(table.sheets[1]?.rows).toHaveLength(rows + 1);
    expect(table.sheets[1]?.rows.at(-1)).toEqual([`Holder ${rows - 1}`, 0.5 + rows - 1]);
  });

  it("decodes the CNMV's sheets as a whole read does", () => {
    const bytes = registerBytes('shared:spain/NetShortPositions.xls');
    const only = (names: string[]) => names.filter((name, i) => i === 0 || /current$/i.test(name));
    expect(decodeWorkbook(bytes, { only, rowsAtFirst: 1_000 })).toEqual(decodeWorkbook(bytes, { only }));
  });
});
