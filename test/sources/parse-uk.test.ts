import { describe, expect, it } from 'vitest';
import { ukAnspCurrent, ukAnspHistoric } from '../../src/sources/parsers/uk-ansp.js';
import { holdings, issuerOf, readFixture } from '../helpers/register-fixtures.js';

// Built files (no real copy exists): see test/fixtures/registers/uk/README.md.
const CURRENT_FIRST = 'uk/aggregated-current-net-short-positions.2026-07-13.csv';

describe('FCA ANSP, current', () => {
  it('reads the first publication: BOM, CRLF, the long date header, a quoted name with a comma', () => {
    const snapshot = readFixture('uk-ansp-current', CURRENT_FIRST);
    expect(snapshot.rows).toBe(6);
    expect(snapshot.namesHolders).toBe(false);
    expect(issuerOf(snapshot, 'GB00BF8Q6K64').aggregate).toEqual({
      percent: 5.81,
      date: '2026-07-09',
      thresholdPercent: 0.2,
    });
    expect(issuerOf(snapshot, 'GB0009223206').name).toBe('Smith & Nephew, plc');
  });

  it.each([
    ['the plain header', 'Position date'],
    ['the first-day header', 'Position date (of latest position date notified)'],
    ['a header in other case', 'POSITION DATE'],
  ])('reads %s', (_name, dateHeader) => {
    const file = `Name of Company,International Securities Identification Number (ISIN),Aggregated net short position (%),${dateHeader}\nABRDN PLC,GB00BF8Q6K64,6.12,14/09/2026\n`;
    const snapshot = ukAnspCurrent.read(Buffer.from(file));
    expect(issuerOf(snapshot, 'GB00BF8Q6K64').aggregate?.date).toBe('2026-09-14');
  });
});

describe('FCA ANSP, historic', () => {
  it('reads past values per ISIN, oldest first, with the date each became historical', () => {
    const snapshot = readFixture(
      'uk-ansp-historic',
      'uk/aggregated-historic-net-short-positions.2026-09-15.csv',
    );
    expect(issuerOf(snapshot, 'GB0001859296').aggregateHistory).toEqual([
      { date: '2026-07-01', percent: 2.95, endedOn: '2026-07-06' },
      { date: '2026-07-06', percent: 3.1, endedOn: '2026-07-09' },
    ]);
    expect(snapshot.aggregateThreshold).toBe(0.2);
  });

  it('refuses the file of 17 Jul 2026 whose % column held dates', () => {
    const misaligned = 'uk/aggregated-historic-net-short-positions.misaligned-2026-07-17.csv';
    expect(() => readFixture('uk-ansp-historic', misaligned)).toThrow(/not a percentage/);
  });

  it('refuses a current file read as historic (no "became historical" column)', () => {
    expect(() =>
      ukAnspHistoric.read(
        Buffer.from('Name of Company,ISIN,Aggregated net short position (%),Position date\n'),
      ),
    ).toThrow(/no header row/);
  });
});

describe('FCA Reportable Shares List', () => {
  it('lists each share class by ISIN, blank "Date added" included', () => {
    const snapshot = readFixture('uk-reportable-shares', 'uk/uk-reportable-shares-list.2026-09-15.csv');
    expect(snapshot.content).toBe('scope');
    expect(snapshot.issuers.map((i) => i.key)).toHaveLength(8);
    expect(snapshot.issuers.filter((i) => i.name === 'SHELL PLC').map((i) => i.key)).toEqual([
      'GB00B03MLX29',
      'GB00BP6MXD84',
    ]);
  });
});

describe('FCA legacy named-holder workbook (last refreshed 10 Jul 2026)', () => {
  it('reads the first sheet whatever its dated name: 257 positions, abrdn with six holders', () => {
    const snapshot = readFixture(
      'uk-legacy-holders',
      'shared:united-kingdom/short-positions-daily-update2.xlsx',
    );
    expect(snapshot.rows).toBe(257);
    expect(snapshot.issuers).toHaveLength(134);
    expect(holdings(issuerOf(snapshot, 'GB00BF8Q6K64'))).toEqual([
      ['BlackRock Investment Management (UK) Limited', 1.95, '2024-05-03'],
      ['Samlyn Capital, LLC', 1.04, '2024-03-14'],
      ['Millennium International Management LP', 0.9, '2024-04-19'],
      ['Canada Pension Plan Investment Board', 0.79, '2024-03-05'],
      ['GLG Partners LP', 0.64, '2024-04-30'],
      ['Gladstone Capital Management LLP', 0.53, '2024-03-21'],
    ]);
  });
});
