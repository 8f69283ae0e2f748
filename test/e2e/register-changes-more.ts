import { registerBytes } from '../helpers/register-fixtures.js';

// The modified copies of the registers added by issue 34 (Austria, Poland, Germany, France, Finland)
// that the third register e2e file serves after each fixture. Each copy keeps its original's bytes and
// traps (SOURCES.md beside the fixtures): rows are added, removed or edited as text, nothing re-encoded.

/** The FMA's history (real copy): CRLF, no break after the last row, quoted decimal commas. */
export const FMA_FIXTURE = 'austria/fma_historical.trimmed.csv';

/**
 * Three notifications on top of the FMA's history: Marshall Wace opened 0.62% in voestalpine on
 * 2026-01-05, filed on 2026-03-02 (56 days late); ActusRay's close at 0.42% in Schoeller-Bleckmann (a
 * row below 0.5%, kept in the file: a close); Algert's 25% in Andritz, cancelled (nothing to tell).
 */
export function fmaChanged(): Buffer {
  const text = registerBytes(FMA_FIXTURE).toString('utf8');
  const cut = text.indexOf('\r\n');
  const added = [
    'Marshall Wace LLP,voestalpine AG,AT0000937503,2026-01-05,"0,62",2026-03-02,',
    'ActusRayPartners Limited,SCHOELLER-BLECKMANN OILFIELD EQUIPMENT Aktiengesellschaft,AT0000946652,2026-01-07,"0,42",2026-01-08,',
    'Algert Global LLC,Andritz AG,AT0000730007,2026-01-06,25,2026-01-07,2026-01-09',
  ];
  return Buffer.from(`${text.slice(0, cut)}\r\n${added.join('\r\n')}${text.slice(cut)}`, 'utf8');
}

/** KNF's current page (real copy): UTF-8 under an ISO-8859-1 meta. */
export const KNF_PAGE_FIXTURE = 'poland/shortsellings-current.html';

/** KNF's page a day later: WorldQuant raised 11BIT 0,58 → 0,66; Citadel's CDPROJEKT row reads `< 0,5`. */
export function knfPageChanged(): Buffer {
  const text = registerBytes(KNF_PAGE_FIXTURE).toString('utf8');
  const raised = replaceOnce(
    text,
    '<td class="tableViewColW11r">0,58</td>\n<td class="tableViewColW11r">2021-03-04</td>',
    '<td class="tableViewColW11r">0,66</td>\n<td class="tableViewColW11r">2021-03-09</td>',
  );
  return Buffer.from(
    replaceOnce(
      raised,
      '<td class="tableViewColW11r">0,50</td>\n<td class="tableViewColW11r">2021-03-08</td>',
      '<td class="tableViewColW11r">&lt; 0,5</td>\n<td class="tableViewColW11r">2021-03-09</td>',
    ),
    'utf8',
  );
}

/** The server's error page (real copy), served with 200. */
export const KNF_ERROR_FIXTURE = 'poland/shortsellings-current.htm';

/** KNF's JSON history (built from the HTML pages): 30 records, read in pages of 20. */
export const KNF_JSON_FIXTURE = 'poland/rss_pub-RssHTable.json';

/** One record more on top: Marshall Wace back above 0.5% in PKNORLEN (0,55 on 2021-03-10); total 31. */
export function knfJsonChanged(): Buffer {
  const reply = JSON.parse(registerBytes(KNF_JSON_FIXTURE).toString('utf8')) as {
    total: number;
    records: unknown[];
  };
  const record = {
    HOLDER_FULL_NAME: 'Marshall Wace LLP',
    ISSUER_NAME: 'PKNORLEN',
    ISIN: 'PLPKN0000018',
    NET_SHORT_POSITION_O: '0,55',
    POSITION_DATE: '2021-03-10',
    MODIFY_DATE: '2021-03-10',
  };
  return Buffer.from(
    JSON.stringify({ ...reply, total: reply.total + 1, records: [record, ...reply.records] }),
  );
}

/** The Bundesanzeiger's open list (built): BOM, every field quoted, CRLF. */
export const BANZ_OPEN_FIXTURE = 'germany/leerverkaeufe_open.csv';
/** The historical export (built): BOM, LF, the close below 0.5% the open list drops. */
export const BANZ_HISTORY_FIXTURE = 'germany/leerverkaeufe_historical.csv';
/** An expired session's page (built), served with 200. */
export const BANZ_EXPIRED_FIXTURE = 'germany/session-expired.html';

/** The open list of 4 Sep 2026: Marshall Wace raised SAP 0,62 → 0,70; Citadel's SAP position gone. */
export function banzOpenChanged(): Buffer {
  const text = registerBytes(BANZ_OPEN_FIXTURE).toString('utf8');
  const raised = replaceOnce(
    text,
    '"Marshall Wace LLP","SAP SE","DE0007164600","0,62","2026-09-01"',
    '"Marshall Wace LLP","SAP SE","DE0007164600","0,70","2026-09-04"',
  );
  return Buffer.from(
    replaceOnce(raised, '"Citadel Advisors LLC","SAP SE","DE0007164600","0,55","2026-08-28"\r\n', ''),
  );
}

/** The historical export of 4 Sep 2026: the same two changes, Citadel's as the closing row at 0,45. */
export function banzHistoryChanged(): Buffer {
  const text = registerBytes(BANZ_HISTORY_FIXTURE).toString('utf8');
  const cut = text.indexOf('\n') + 1;
  const added = [
    '"Marshall Wace LLP","SAP SE","DE0007164600","0,70","2026-09-04"',
    '"Citadel Advisors LLC","SAP SE","DE0007164600","0,45","2026-09-04"',
  ];
  return Buffer.from(`${text.slice(0, cut)}${added.join('\n')}\n${text.slice(cut)}`, 'utf8');
}

/** The AMF's export (built): `;`, BOM, quoted, CRLF. */
export const AMF_FIXTURE = 'france/export_od_vad_20261001111500_20261001123000.csv';

/**
 * The export of 2 Oct 2026: Marshall Wace raised FORVIA 0.71 → 0.80 (its old row's publication ends);
 * AQR's FORVIA position ended (its row's publication ends, no new one).
 */
export function amfChanged(): Buffer {
  const text = registerBytes(AMF_FIXTURE).toString('utf8');
  const marshall =
    '"Marshall Wace LLP";"213800ZZZMWACE00LP01";"FORVIA";"0.71";"FR0000121147";"2026-09-29";"2026-09-30";""';
  const aqr =
    '"AQR Capital Management, LLC";"549300ZZZAQRCAP00B03";"FORVIA";"1,05";"FR0000121147";"2026-09-25";"2026-09-26";""';
  const raised = replaceOnce(
    text,
    marshall,
    `${marshall.replace(/""$/, '"2026-10-02"')}\r\n"Marshall Wace LLP";"213800ZZZMWACE00LP01";"FORVIA";"0.80";"FR0000121147";"2026-10-01";"2026-10-02";""`,
  );
  return Buffer.from(replaceOnce(raised, aqr, aqr.replace(/""$/, '"2026-10-02"')), 'utf8');
}

/** FIN-FSA's DataTables JSON (built). */
export const FIN_FIXTURE = 'finland/current.json';

/** FIN-FSA a day later: Marshall Wace raised Nokia 0.61 → 0.70; Citadel's Nokia position gone. */
export function finChanged(): Buffer {
  const reply = JSON.parse(registerBytes(FIN_FIXTURE).toString('utf8')) as {
    data: {
      positionHolder: string;
      isinCode: string;
      netShortPositionInPercent: number;
      positionDate: string;
    }[];
  };
  const data = reply.data
    .filter((row) => !(row.positionHolder === 'Citadel Advisors LLC' && row.isinCode === 'FI0009000681'))
    .map((row) =>
      row.positionHolder === 'Marshall Wace LLP' && row.isinCode === 'FI0009000681'
        ? { ...row, netShortPositionInPercent: 0.7, positionDate: '2026-10-01T00:00:00' }
        : row,
    );
  return Buffer.from(
    JSON.stringify({ ...reply, recordsTotal: data.length, recordsFiltered: data.length, data }),
  );
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`not in the fixture: ${from}`);
  return `${text.slice(0, at)}${to}${text.slice(at + from.length)}`;
}
