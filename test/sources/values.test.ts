import { describe, expect, it } from 'vitest';
import { excelSerialDate, parseDate, parsePercent } from '../../src/sources/values.js';

describe('parsePercent', () => {
  it.each([
    ['a number cell', 1.1, 1.1],
    ['a decimal point', '0.55', 0.55],
    ['a decimal comma (FSMA, Norway nb-NO)', '0,53', 0.53],
    ['padding', ' 0,7 ', 0.7],
    ["Sweden's history mark for a closed position", '<0,5', 0],
    ['a zero', '0', 0],
    ['a date in the % column (FCA, 17 Jul 2026)', '01/07/2026', undefined],
    ['empty', '', undefined],
    ['null', null, undefined],
    ['text', 'n/a', undefined],
  ] as const)('%s', (_name, cell, expected) => {
    expect(parsePercent(cell)).toBe(expected);
  });
});

describe('parseDate', () => {
  it.each([
    ['ISO', '2023-12-14', '2023-12-14'],
    ['ISO with a time (AFM)', '2025-08-11 00:00:00', '2025-08-11'],
    ['padded with spaces (CNMV)', ' 2025-07-21 ', '2025-07-21'],
    ['dd/mm/yyyy (FSMA, FCA)', '11/08/2025', '2025-08-11'],
    ['dd.mm.yyyy (Norway nb-NO)', '16.10.2023', '2023-10-16'],
    ['an Excel serial (CONSOB, CBI, FCA legacy)', 45880, '2025-08-11'],
    ['an Excel serial with a time of day', 45826.625, '2025-06-18'],
    ['an impossible day', '31/02/2025', undefined],
    ['a percentage', '0,53', undefined],
    ['empty', '', undefined],
  ] as const)('%s', (_name, cell, expected) => {
    expect(parseDate(cell)).toBe(expected);
  });

  it('puts Excel serial 1 on 1899-12-31 and refuses numbers that are no date', () => {
    expect(excelSerialDate(1)).toBe('1899-12-31');
    expect(excelSerialDate(0.88)).toBeUndefined();
  });
});
