import { describe, expect, it } from 'vitest';
import { holdings, issuerOf, readFixture } from '../helpers/register-fixtures.js';

describe('CONSOB (IT)', () => {
  const snapshot = readFixture('it-consob', 'shared:italy/PncPubbl.xlsx');

  it('reads the current sheet (name padded with spaces) under its two header rows', () => {
    expect(snapshot.rows).toBe(64);
    expect(snapshot.issuers).toHaveLength(33);
    expect(snapshot.publishedOn).toBe('2025-08-12');
  });

  it('turns Excel serial dates into dates and keeps the issuer LEI', () => {
    const amplifon = issuerOf(snapshot, 'IT0004056880');
    expect(amplifon.lei).toBe('ZYXJDNVM2JI3VBM8G556');
    expect(holdings(amplifon)).toEqual([
      ['Gladstone Capital Management LLP', 0.72, '2025-07-30'],
      ['Ilex Capital Partners (UK) LLP', 0.72, '2025-08-05'],
      ['D. E. Shaw & Co., L.P.', 0.59, '2025-08-11'],
      ['Squarepoint Ops LLC', 0.58, '2025-08-08'],
    ]);
  });
});

describe('CNMV (ES), BIFF8 .xls', () => {
  const snapshot = readFixture('es-cnmv', 'shared:spain/NetShortPositions.xls');

  it('reads the current sheet under three blank rows, dated by the padded text of the date sheet', () => {
    expect(snapshot.rows).toBe(39);
    expect(snapshot.issuers).toHaveLength(24);
    expect(snapshot.publishedOn).toBe('2025-08-12');
  });

  it('reads dates padded with spaces and the issuer LEI', () => {
    const acciona = issuerOf(snapshot, 'ES0125220311');
    expect(acciona.lei).toBe('54930002KP75TLLLNO21');
    expect(holdings(acciona)).toEqual([
      ['Point 72 Europe (London) LLP', 0.6, '2025-08-06'],
      ['BlackRock Investment Management (UK) Limited', 0.52, '2025-07-21'],
      ['Point72 Asset Management, L.P.', 0.5, '2025-07-01'],
    ]);
  });
});

describe('Central Bank of Ireland', () => {
  it('reads fractions as per cent (0.0088 is 0.88%), from column B, past "Last Updated:" in column A', () => {
    const snapshot = readFixture(
      'ie-cbi',
      'shared:ireland/table-of-significant-net-short-positions-in-shares.xlsx',
    );
    expect(snapshot.rows).toBe(1);
    expect(holdings(issuerOf(snapshot, 'IE00BJ5FQX74'))).toEqual([['GLG Partners LP', 0.88, '2025-06-18']]);
  });
});

describe('FSMA (BE)', () => {
  it('reads quoted decimal commas, dd/mm/yyyy and a last row without a newline', () => {
    const snapshot = readFixture('be-fsma-current', 'shared:belgium/de-shortselling.csv');
    expect(snapshot.rows).toBe(20);
    expect(snapshot.issuers).toHaveLength(12);
    expect(holdings(issuerOf(snapshot, 'BE0003851681'))).toEqual([
      ['MIRABELLA FINANCIAL SERVICES LLP', 0.63, '2025-06-24'],
      ['UBS ASSET MANAGEMENT (AMERICAS) LLC', 0.61, '2025-07-18'],
      ['ALPINE ASSOCIATES MANAGEMENT INC.', 0.53, '2025-08-11'],
      ['PSQUARED ASSET MANAGEMENT AG', 0.5, '2025-06-02'],
    ]);
  });

  it('reads the history in UTF-8 with every row kept', () => {
    const snapshot = readFixture('be-fsma-history', 'shared:belgium/de-shortselling-history.csv');
    expect(snapshot.rows).toBe(236);
    const holders = snapshot.issuers.flatMap((i) => i.history ?? []).map((p) => p.holder);
    expect(holders).toContain('MCP (Switzerland) Sàrl');
    expect(Math.min(...snapshot.issuers.flatMap((i) => i.history ?? []).map((p) => p.percent))).toBe(0.5);
  });

  it('holds no position of the history read alone: every row was replaced on its change date', () => {
    const history = readFixture('be-fsma-history', 'shared:belgium/de-shortselling-history.csv');
    // EURONAV, COLRUYT, AGEAS, BPOST and ARGENX were last notified years ago: closed, not held.
    const names = history.issuers.map((issuer) => issuer.name);
    expect(names).toEqual(expect.arrayContaining(['EURONAV', 'COLRUYT', 'AGEAS', 'BPOST', 'ARGENX']));
    expect(history.issuers.flatMap((issuer) => issuer.positions)).toEqual([]);
    // SOLVAY's 105 rows are its history; its held sum (0, read alone) is never the 4.43% of latest rows.
    expect(issuerOf(history, 'BE0003470755').history).toHaveLength(105);
  });
});
