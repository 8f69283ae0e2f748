import { describe, expect, it } from 'vitest';
import { norwaySsrJson } from '../../src/sources/parsers/norway.js';
import { joinSwedish } from '../../src/sources/sweden-join.js';
import { holdings, issuerOf, readFixture, registerBytes } from '../helpers/register-fixtures.js';

const NO_JSON = 'shared:norway/ShortingHistory-24-08-2022.trimmed.json';

describe("Norway's SSR JSON", () => {
  const snapshot = readFixture('no-ssr-json', NO_JSON);

  it('keeps every position any event listed as the history (186 positions, fewer once repeats merge)', () => {
    const history = snapshot.issuers.flatMap((i) => i.history ?? []);
    expect(history.length).toBeGreaterThan(6);
    expect(history.length).toBeLessThanOrEqual(186);
    expect(
      new Set(history.filter((p) => p.holder === 'Citadel Advisors LLC').map((p) => p.date)).size,
    ).toBeGreaterThan(1);
  });

  it('reads the six instruments and all 72 events', () => {
    expect(snapshot.issuers.map((i) => i.name)).toEqual([
      'ARCHER',
      'FRONTLINE',
      'NEL',
      'AKER BP',
      'AKER CARBON CAPTUR',
      'AKER OFFSHORE WIND',
    ]);
    expect(snapshot.rows).toBe(72);
  });

  it("takes NEL's newest event: its aggregate (from 0.5%) and its four holders", () => {
    const nel = issuerOf(snapshot, 'NO0010081235');
    expect(nel.aggregate).toEqual({ percent: 4.23, date: '2022-08-09', thresholdPercent: 0.5 });
    expect(holdings(nel)).toEqual([
      ['Helikon Investments Limited', 2.2, '2022-08-02'],
      ['Arrowstreet Capital, Limited Partnership', 0.89, '2022-08-04'],
      ['Ennismore Fund Mangement Limited', 0.57, '2022-08-01'],
      ['Odey Asset Management LLP', 0.57, '2022-05-12'],
    ]);
    expect(nel.aggregateHistory).toHaveLength(12);
  });

  it('reads a close (0.0, no positions) as no aggregate and no holder', () => {
    const akerBp = issuerOf(snapshot, 'NO0010345853');
    expect(akerBp.aggregate).toBeUndefined();
    expect(akerBp.positions).toEqual([]);
    expect(akerBp.aggregateHistory?.at(-1)).toEqual({ date: '2022-07-19', percent: 0 });
  });

  it('keeps UTF-8 holder names with double spaces, served with CRLF (FRONTLINE as of its oldest events)', () => {
    const all: { isin: string; events: unknown[] }[] = JSON.parse(registerBytes(NO_JSON).toString('utf8'));
    const frontline = all
      .filter((i) => i.isin === 'BMG3682E1921')
      .map((i) => ({ ...i, events: i.events.slice(-3) }));
    const crlf = Buffer.from(JSON.stringify(frontline, null, 2).replace(/\n/g, '\r\n'), 'utf8');
    const frontlineThen = issuerOf(norwaySsrJson.read(crlf), 'BMG3682E1921');
    const holders = frontlineThen.positions.map((p) => [p.holder, p.holderKey]);
    expect(holders).toContainEqual(['Øystein STRAY SPETALEN', 'øysteinstrayspetalen']);
  });
});

describe("Norway's SSR CSV export (pipe, nb-NO)", () => {
  it('reads decimal commas and dd.mm.yyyy into an aggregate history, 0|0 as closed', () => {
    const snapshot = readFixture('no-ssr-csv', 'shared:norway/export-csv_separator-pipe_excerpt.csv');
    expect(snapshot.rows).toBe(24);
    const bulkers = issuerOf(snapshot, 'BMG9156K1018');
    expect(bulkers.aggregate).toEqual({ percent: 0.68, date: '2023-10-16', thresholdPercent: 0.5 });
    expect(bulkers.aggregateHistory?.filter((p) => p.date >= '2023-06-02').slice(0, 3)).toEqual([
      { date: '2023-06-02', percent: 0 },
      { date: '2023-06-14', percent: 0.5 },
      { date: '2023-07-05', percent: 0 },
    ]);
    expect(snapshot.namesHolders).toBe(false);
  });
});

describe("Sweden's FI files", () => {
  const current = readFixture('se-fi-current', 'shared:sweden/AktuellaPositioner.ods');
  const aggregates = readFixture('se-fi-aggregate', 'shared:sweden/Blankningsregisteraggregat.ods');

  it('reads the 162 current positions under the five-row title block, past 700,000 blank rows', () => {
    expect(current.rows).toBe(162);
    expect(current.issuers).toHaveLength(72);
    // The date column's header text is lost by the ODS reader; the dates are still read.
    expect(holdings(issuerOf(current, 'SE0015949748'))).toEqual([
      ['AKO Capital LLP', 1.23, '2023-12-13'],
      ['Kintbury Capital LLP', 0.66, '2023-12-14'],
      ['AQR Capital Management LLC', 0.52, '2023-07-07'],
    ]);
  });

  it('reads 414 aggregates keyed by LEI, from 0.1%, names without their leading space', () => {
    expect(aggregates.rows).toBe(414);
    const rusta = issuerOf(aggregates, 'lei:549300V512S3QMRNO618');
    expect(rusta.name).toBe('Rusta AB (publ)');
    expect(rusta.aggregate).toEqual({ percent: 0.68, date: '2023-10-31', thresholdPercent: 0.1 });
    expect(aggregates.issuers.filter((i) => (i.aggregate?.percent ?? 1) < 0.5)).toHaveLength(213);
  });

  it('joins the two files on the issuer name: SKF gets its LEI and aggregate beside its holders', () => {
    const joined = joinSwedish(current, aggregates);
    // 414 aggregates (two of them Karnov AB, by two LEIs) and Ericsson's B share, named without one.
    expect(joined.issuers).toHaveLength(415);
    expect(joined.issuers.filter((i) => i.aggregate)).toHaveLength(414);
    expect(joined.issuers.filter((i) => /karnov/i.test(i.name)).map((i) => i.key)).toEqual([
      'lei:549300IJXT70QW58G373',
      'lei:549300P7312749LJS754',
    ]);
    const ericsson = issuerOf(joined, 'SE0000108649');
    expect(ericsson.namedElsewhere).toBeGreaterThan(0);
    expect(issuerOf(joined, 'SE0000108656').aggregate).toBeUndefined();
    expect(joined.issuers.filter((i) => i.aggregate && i.positions.length > 0)).toHaveLength(71);
    const skf = issuerOf(joined, 'SE0000108227');
    expect(skf.lei).toBe('549300B6HWYEE57O8J84');
    expect(skf.aggregate?.percent).toBe(4.87);
    expect(holdings(skf).map(([holder, percent]) => [holder, percent])).toEqual([
      ['Citadel Advisors Europe Limited', 0.67],
      ['Citadel Advisors LLC', 0.55],
    ]);
  });
});

describe('one holder across registers', () => {
  it('keys Citadel Advisors LLC the same in NL, NO and SE', () => {
    const keys = [
      readFixture('afm-current', 'shared:netherlands/nettoshortpositiesactueel.csv'),
      readFixture('no-ssr-json', NO_JSON),
      readFixture('se-fi-current', 'shared:sweden/AktuellaPositioner.ods'),
    ].map(
      (s) =>
        s.issuers
          .flatMap((i) => i.history ?? i.positions)
          .find((p) => /^citadel advisors llc$/i.test(p.holder))?.holderKey,
    );
    expect(keys).toEqual(['citadeladvisorsllc', 'citadeladvisorsllc', 'citadeladvisorsllc']);
  });
});
