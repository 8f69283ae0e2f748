import { describe, expect, it } from 'vitest';
import { holderKey } from '../../src/positions/holder-key.js';
import { afmCurrent } from '../../src/sources/parsers/afm.js';
import { holdings, issuerOf, readFixture, registerBytes } from '../helpers/register-fixtures.js';

describe('AFM (NL) current, English export', () => {
  const snapshot = readFixture('afm-current', 'shared:netherlands/nettoshortpositiesactueel.csv');

  it('reads every row and keeps one position per holder and ISIN', () => {
    expect(snapshot.rows).toBe(192);
    expect(snapshot.issuers).toHaveLength(20);
    expect(snapshot.publishedOn).toBe('2025-08-12');
  });

  it('takes the latest of the 40 notifications of PDT Partners at Alfen (the "actueel" trap)', () => {
    expect(holdings(issuerOf(snapshot, 'NL0012817175'))).toEqual([
      ['PDT Partners, LLC', 2.28, '2025-08-04'],
      ['D. E. Shaw & Co., L.P.', 1.78, '2025-08-07'],
      ['Voleon Capital Management LP', 1.46, '2025-08-08'],
      ['GSA Capital Partners LLP', 0.5, '2025-08-06'],
    ]);
  });

  it('lists the six holders of Basic-Fit with their latest values', () => {
    const basicFit = issuerOf(snapshot, 'NL0011872650');
    expect(basicFit.name).toBe('Basic-Fit N.V.');
    expect(holdings(basicFit).map(([holder, percent]) => [holder, percent])).toEqual([
      ['JPMorgan Asset Management (UK) Ltd.', 1.77],
      ['Fosse Capital Partners LLP', 1.39],
      ['D. E. Shaw & Co., L.P.', 0.82],
      ['Wellington Management International Ltd.', 0.65],
      ['Acadian Asset Management LLC.', 0.59],
      ['PDT Partners, LLC', 0.53],
    ]);
  });

  it('reads the same file served with CRLF line endings to the same snapshot', () => {
    const lf = registerBytes('shared:netherlands/nettoshortpositiesactueel.csv').toString('latin1');
    const crlf = Buffer.from(lf.replace(/\n/g, '\r\n'), 'latin1');
    expect(afmCurrent.read(crlf)).toEqual(snapshot);
  });
});

describe('AFM (NL) history and the 2020 Dutch export', () => {
  it('decodes Windows-1252: ç is one byte 0xE7, read as "Serviços"', () => {
    const history = readFixture('afm-history', 'shared:netherlands/nettoshortpositieshistorie.csv');
    expect(history.rows).toBe(257);
    const besi = issuerOf(history, 'NL0012866412');
    const verde = besi.history?.filter((p) => p.holder === 'Verde Serviços Internacionais S.A.');
    expect(verde?.map((p) => [p.percent, p.date])).toEqual([
      [0.55, '2020-05-08'],
      [0.65, '2020-10-13'],
      [0.02, '2020-12-07'],
    ]);
    // The closing notification below 0.5 is the latest row: the position is closed, not held at 0.02%.
    expect(besi.positions.map((p) => p.holderKey)).not.toContain(
      holderKey('Verde Serviços Internacionais S.A.'),
    );
  });

  it('holds none of the 64 positions of the history: every latest notification is below 0.5 (closed)', () => {
    const history = readFixture('afm-history', 'shared:netherlands/nettoshortpositieshistorie.csv');
    const latest = new Map<string, number>();
    for (const issuer of history.issuers)
      for (const row of issuer.history ?? []) latest.set(`${issuer.key}|${row.holderKey}`, row.percent);
    expect(latest.size).toBe(64);
    expect([...latest.values()].every((percent) => percent < 0.5)).toBe(true);
    expect(history.issuers.flatMap((issuer) => issuer.positions)).toEqual([]);
  });

  it('reads the Dutch header and CRLF, and keeps the three day-after rows below 0.5', () => {
    const dutch = readFixture(
      'afm-current',
      'shared:netherlands/2020-05-01_nl/nettoshortpositiesactueel.csv',
    );
    expect(dutch.rows).toBe(247);
    expect(dutch.publishedOn).toBe('2020-05-01');
    const below = dutch.issuers.flatMap((i) =>
      i.positions.filter((p) => p.percent < 0.5).map((p) => [i.name, p.holder, p.percent, p.date]),
    );
    expect(below).toEqual([
      ['Wereldhave N.V.', 'Citadel Advisors LLC', 0.49, '2020-04-30'],
      ['Fugro N.V.', 'Voleon Capital Management LP', 0.48, '2020-04-30'],
      ['Pharming Group N.V.', 'Citadel Advisors LLC', 0.37, '2020-04-30'],
    ]);
  });

  it('reads the Dutch history (Windows-1252, CRLF) with every row kept', () => {
    const history = readFixture(
      'afm-history',
      'shared:netherlands/2020-05-01_nl/nettoshortpositieshistorie.csv',
    );
    expect(history.rows).toBe(251);
    expect(history.issuers.reduce((n, i) => n + (i.history?.length ?? 0), 0)).toBe(251);
    expect(history.issuers.some((i) => i.history?.some((p) => p.holder.includes('\uFFFD')))).toBe(false);
  });
});
