import { describe, expect, it } from 'vitest';
import { lateFiling } from '../../src/positions/late-filing.js';
import { readRegister } from '../../src/sources/health.js';
import { REGISTER_READERS } from '../../src/sources/registers.js';
import type { RegisterSnapshot } from '../../src/sources/types.js';
import { holdings, issuerOf, readFixture, registerBytes } from '../helpers/register-fixtures.js';

const LIMITS = { minShrinkRatio: 0.5, shrinkFloor: 10 };

/** Every history row of a snapshot. */
function historyRows(snapshot: RegisterSnapshot) {
  return snapshot.issuers.flatMap((issuer) => issuer.history ?? []);
}

/** Why a fixture is refused, through the health check every read goes through. */
function refusal(kind: keyof typeof REGISTER_READERS, bytes: Buffer): string {
  const outcome = readRegister(REGISTER_READERS[kind], bytes, LIMITS);
  return outcome.status === 'not-read' ? `${outcome.reason}: ${outcome.detail}` : 'read';
}

describe('FMA (AT) history, real copy', () => {
  const snapshot = readFixture('at-fma-history', 'austria/fma_historical.trimmed.csv');
  const history = historyRows(snapshot);

  it('reads every row, CRLF and no break after the last, quoted decimal commas beside bare whole numbers', () => {
    expect(snapshot.rows).toBe(1267);
    // 14 ISINs in the file; 5 of them only in cancelled rows, which list nothing.
    expect(snapshot.issuers).toHaveLength(9);
    // The source's last row, without a line break after it: "WorldQuant, LLC" quoted, "0,5".
    expect(history).toContainEqual(
      expect.objectContaining({ holder: 'WorldQuant, LLC', percent: 0.5, date: '2016-05-06' }),
    );
    // A bare whole number (`1`) beside quoted decimal commas.
    const voest = issuerOf(snapshot, 'AT0000937503').history ?? [];
    expect(voest).toContainEqual(
      expect.objectContaining({ holder: 'Pictet Asset Management SA', percent: 1, date: '2019-12-20' }),
    );
  });

  it('drops the 44 cancelled notifications before taking the latest per holder and ISIN', () => {
    expect(history).toHaveLength(1267 - 44);
    // Algert's 18.5% and Mackay Shields' 21% in Zumtobel were cancelled.
    expect(history.filter((row) => row.percent > 15)).toEqual([]);
    // Pictet/voestalpine 2020-04-01: 1.39 cancelled on 2020-05-26, replaced by 1.43 reported that day.
    const pictet = (issuerOf(snapshot, 'AT0000937503').history ?? []).filter(
      (row) => row.holder === 'Pictet Asset Management SA' && row.date === '2020-04-01',
    );
    expect(pictet.map((row) => [row.percent, row.reportedOn])).toEqual([[1.43, '2020-05-26']]);
    // The live conflict with no cancellation (2020-03-17: 1.46 and 0.56, same reporting date) stays as filed.
    const conflict = (issuerOf(snapshot, 'AT0000937503').history ?? []).filter(
      (row) => row.holder === 'Pictet Asset Management SA' && row.date === '2020-03-17',
    );
    expect(conflict.map((row) => row.percent).sort()).toEqual([0.56, 1.46]);
  });

  it('reads a latest row below 0.5% as the close it is, never as a position', () => {
    expect(history.filter((row) => row.percent < 0.5)).toHaveLength(132);
    expect(history.filter((row) => row.percent === 0)).toHaveLength(9);
    // Pictet's last voestalpine row is 0.47% (2020-10-22): voestalpine lists no position.
    expect(issuerOf(snapshot, 'AT0000937503').positions).toEqual([]);
    for (const issuer of snapshot.issuers)
      for (const position of issuer.positions) expect(position.percent).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps the reporting date: late filings (reported more than 4 days after) are told with both dates', () => {
    const late = history.filter((row) => lateFiling({ value: row.percent, ...row }) !== undefined);
    expect(late).toHaveLength(25);
    expect(lateFiling({ value: 1.43, date: '2020-04-01', reportedOn: '2020-05-26' })).toEqual({
      date: '2020-04-01',
      reportedOn: '2020-05-26',
      days: 55,
    });
  });

  it("lists a chosen issuer's holders, both spellings of one fund kept apart by the name key", () => {
    expect(holdings(issuerOf(snapshot, 'AT0000969985'))).toEqual([
      ['JPMORGAN ASSET MANAGEMENT (UK) LIMITED', 0.81, '2025-09-16'],
      ['Qube Research and Technologies', 0.81, '2024-11-19'],
    ]);
    expect(issuerOf(snapshot, 'AT0000APOST4').name).toBe('Österreichische Post Aktiengesellschaft');
  });
});

describe('KNF (PL), real copies of the HTML pages', () => {
  it('reads the current page as UTF-8 although it declares ISO-8859-1', () => {
    const bytes = registerBytes('poland/shortsellings-current.html');
    expect(bytes.toString('latin1')).toContain('charset=ISO-8859-1');
    const snapshot = readFixture('pl-knf-html', 'poland/shortsellings-current.html');
    expect(snapshot.rows).toBe(5);
    expect(snapshot.issuers).toHaveLength(4);
    expect(holdings(issuerOf(snapshot, 'PLOPTTC00011'))).toEqual([
      ['LIGHT STREET CAPITAL MANAGEMENT, LLC', 0.58, '2021-02-08'],
      ['Citadel Advisors LLC', 0.5, '2021-03-08'],
    ]);
    // `Nazwa papieru` is the short name the register gives, not a legal name.
    expect(issuerOf(snapshot, 'PLOPTTC00011').name).toBe('CDPROJEKT');
  });

  it('refuses a page of a longer list (1/34, 1,007 records) as truncated, not as 30 rows', () => {
    expect(refusal('pl-knf-html', registerBytes('poland/shortsellings-history.html'))).toBe(
      "truncated: page 1 of 34 holds 30 of 1007 records (read KNF's JSON API, which pages)",
    );
  });

  it('refuses the server error page as "not read", never as zero positions', () => {
    expect(refusal('pl-knf-html', registerBytes('poland/shortsellings-current.htm'))).toMatch(
      /^html-page: no positions table on the page: ".*Problem wewnętrzny - proszę skontaktować się/,
    );
  });
});

describe('KNF (PL) JSON API, built from the HTML pages in the described reply', () => {
  const history = readFixture('pl-knf-json-history', 'poland/rss_pub-RssHTable.json');

  it('reads `< 0,5` as a close and keeps every row as history', () => {
    expect(history.rows).toBe(30);
    expect(historyRows(history).filter((row) => row.percent === 0)).toHaveLength(12);
    // Wellington (typo as filed) closed ALIOR with `< 0,5`: ALIOR lists nobody.
    expect(issuerOf(history, 'PLALIOR00045').positions).toEqual([]);
    expect(historyRows(history).map((row) => row.holder)).toContain('Wellington Managament Company LLP');
    expect(holdings(issuerOf(history, 'PL11BTS00015'))).toEqual([['WorldQuant, LLC', 0.58, '2021-03-04']]);
  });

  it('agrees with the HTML page on the current positions', () => {
    const json = readFixture('pl-knf-json-current', 'poland/rss_pub-Default.json');
    const html = readFixture('pl-knf-html', 'poland/shortsellings-current.html');
    expect(json.issuers).toEqual(html.issuers);
  });

  it('refuses a reply whose records fall short of its total, or that failed', () => {
    const reply = JSON.parse(registerBytes('poland/rss_pub-Default.json').toString('utf8'));
    const short = Buffer.from(JSON.stringify({ ...reply, records: reply.records.slice(1) }));
    expect(refusal('pl-knf-json-current', short)).toBe('truncated: 4 of 5 records');
    const failed = Buffer.from(JSON.stringify({ status: 'error', records: [] }));
    expect(refusal('pl-knf-json-current', failed)).toBe('unparseable: KNF answered status "error"');
  });
});

describe('Bundesanzeiger (DE), built from the described format', () => {
  const open = readFixture('de-banz-current', 'germany/leerverkaeufe_open.csv');
  const historical = readFixture('de-banz-history', 'germany/leerverkaeufe_historical.csv');

  it('reads the open list: BOM, every field quoted, commas inside names, decimal comma, CRLF', () => {
    const bytes = registerBytes('germany/leerverkaeufe_open.csv');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(open.rows).toBe(10);
    expect(open.issuers).toHaveLength(6);
    expect(holdings(issuerOf(open, 'DE000ZAL1111'))).toEqual([
      ['AQR Capital Management, LLC', 1.12, '2026-09-02'],
      ['Qube Research & Technologies Limited', 0.71, '2026-08-15'],
    ]);
    // Positions last changed years ago are still open.
    expect(holdings(issuerOf(open, 'DE000A0TGJ55'))[0]).toEqual([
      'Millennium International Management LP',
      2.01,
      '2023-05-11',
    ]);
  });

  it('reads the close the open list drops from the historical export, and the same positions otherwise', () => {
    // Citadel's Bayer position: 0.61% on 2026-08-14, closed by a 0.49% row the open list never shows.
    expect(holdings(issuerOf(historical, 'DE000BAY0017'))).toEqual([
      ['Two Sigma Investments, LP', 0.5, '2026-09-02'],
    ]);
    expect(issuerOf(historical, 'DE000BAY0017').history?.map((row) => row.percent)).toEqual([
      0.61, 0.49, 0.5,
    ]);
    expect(open.issuers.map((issuer) => [issuer.key, holdings(issuer)])).toEqual(
      historical.issuers.map((issuer) => [issuer.key, holdings(issuer)]),
    );
  });

  it('collapses exact duplicate rows and keeps same-day revisions (the first listed is the position)', () => {
    expect(historical.rows).toBe(20);
    const zalando = issuerOf(historical, 'DE000ZAL1111').history ?? [];
    expect(zalando.filter((row) => row.holder.startsWith('AQR') && row.date === '2026-09-02')).toHaveLength(
      1,
    );
    expect(zalando.filter((row) => row.holder.startsWith('Qube')).map((row) => row.percent)).toEqual([
      0.71, 0.69,
    ]);
  });

  it('refuses the HTML page of an expired session, served with 200, as "not read"', () => {
    const page = registerBytes('germany/session-expired.html');
    expect(refusal('de-banz-current', page)).toMatch(/^html-page: /);
    // Even where the page does not begin like one the health check knows (an XML prolog first).
    const prolog = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n'), page]);
    expect(refusal('de-banz-history', prolog)).toBe(
      'html-page: an HTML page (an expired session?) was served in place of the CSV',
    );
  });
});

describe('AMF (FR) export on data.gouv.fr, built from the described format', () => {
  const snapshot = readFixture('fr-amf', 'france/export_od_vad_20261001111500_20261001123000.csv');

  it('reads `;`, the BOM, quoted fields, decimal points and commas, ISO and dd/mm/yyyy end dates', () => {
    expect(snapshot.rows).toBe(14);
    expect(snapshot.issuers).toHaveLength(4);
    // `1,05` (a decimal comma) is AQR's open FORVIA row; its previous row ended on `26/09/2026`.
    expect(holdings(issuerOf(snapshot, 'FR0000121147'))).toEqual([
      ['AQR Capital Management, LLC', 1.05, '2026-09-25'],
      ['Marshall Wace LLP', 0.71, '2026-09-29'],
    ]);
  });

  it('takes the latest row per holder: FORVIA sums to 1.76%, not every row of its history', () => {
    const forvia = issuerOf(snapshot, 'FR0000121147');
    expect(forvia.history).toHaveLength(7);
    expect(forvia.positions.reduce((sum, p) => sum + p.percent, 0)).toBeCloseTo(1.76, 6);
    // Citadel's latest FORVIA row is 0.42%, still published: a close, not a position.
    expect(forvia.positions.map((p) => p.holder)).not.toContain('Citadel Advisors LLC');
  });

  it("keeps the holder's LEI and the start of publication (a late filing shows as the gap)", () => {
    const [marshall] = issuerOf(snapshot, 'FR0011981968').positions;
    expect(marshall).toMatchObject({ holder: 'Marshall Wace LLP', holderLei: '213800ZZZMWACE00LP01' });
    const [twoSigma] = issuerOf(snapshot, 'FR0000054470').positions;
    expect(twoSigma).toMatchObject({ date: '2026-06-30', reportedOn: '2026-09-28' });
    expect(lateFiling({ value: 0.52, date: '2026-06-30', reportedOn: '2026-09-28' })?.days).toBe(90);
  });

  it('reads the export without its LEI column (one reader lists none) and with accented headers', () => {
    const text = registerBytes('france/export_od_vad_20261001111500_20261001123000.csv').toString('utf8');
    const lines = text.split('\r\n').map((line) =>
      line
        .split(';')
        .filter((_, i) => i !== 1)
        .join(';'),
    );
    const accented = lines.join('\r\n').replace('"Detenteur', '"Détenteur').replace('"Emetteur', '"Émetteur');
    const without = REGISTER_READERS['fr-amf'].read(Buffer.from(accented));
    expect(holdings(issuerOf(without, 'FR0000121147'))).toEqual(holdings(issuerOf(snapshot, 'FR0000121147')));
    expect(issuerOf(without, 'FR0000121147').positions[0]?.holderLei).toBeUndefined();
  });
});

describe('FIN-FSA (FI), built from the described format', () => {
  it('reads the DataTables JSON and the `;` export alike (numbers or decimal commas, ISO or dd.mm.yyyy)', () => {
    const json = readFixture('fi-fsa-current', 'finland/current.json');
    const csv = readFixture('fi-fsa-current', 'finland/current-export.csv');
    expect(json.rows).toBe(6);
    expect(json.issuers).toHaveLength(4);
    expect(holdings(issuerOf(json, 'FI0009000681'))).toEqual([
      ['Marshall Wace LLP', 0.61, '2026-09-30'],
      ['Citadel Advisors LLC', 0.5, '2026-09-18'],
    ]);
    expect(issuerOf(json, 'FI0009003727').name).toBe('Wärtsilä Oyj Abp');
    expect(csv.issuers).toEqual(json.issuers);
  });

  it('refuses a body that is neither (an error page, another JSON)', () => {
    expect(refusal('fi-fsa-current', Buffer.from('{"error":"not found"}'))).toMatch(/^wrong-header: /);
    expect(refusal('fi-fsa-current', Buffer.from('<html><body>404</body></html>'))).toMatch(/^html-page: /);
  });
});
