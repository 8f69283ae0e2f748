import { decodeCsv, decodeText } from '../decode.js';
import { RegisterReadError } from '../errors.js';
import { type NamedTableLayout, namedRows } from '../named-table.js';
import { issuersFromNotifications } from '../notifications.js';
import { readerOf } from '../reader.js';
import { snapshotOf } from '../snapshot.js';
import type { DecodedTable, RegisterSnapshot } from '../types.js';

// The Bundesanzeiger's export: `,`-separated, UTF-8 with a BOM, every field quoted, header
// `"Positionsinhaber","Emittent","ISIN","Position","Datum"`, decimal comma, ISO dates. The English
// view's words are accepted too.
const LAYOUT: NamedTableLayout = {
  header: {
    holder: /^(positionsinhaber|position holder)$/,
    issuer: /^(emittent|issuer)$/,
    isin: /^isin$/,
    percent: /^(position|net short position)( \(%\))?$/,
    date: /^(datum|date|position date)$/,
  },
};

/**
 * The export as one sheet. The site is a Wicket application: an expired session answers the CSV link
 * with its HTML page and status 200, which is "not read", whatever the page starts with.
 */
function decodeBanz(bytes: Uint8Array): DecodedTable {
  const text = decodeText(bytes, 'utf-8');
  if (/^\s*</.test(text)) {
    throw new RegisterReadError(
      'html-page',
      'an HTML page (an expired session?) was served in place of the CSV',
    );
  }
  return decodeCsv(text, ',');
}

/**
 * The open list holds each open position once; the historical export (`isHistorical`) every row, the
 * closing row below 0.5% included (the open list drops it: read alone, it misses closes). Exact
 * duplicate rows are one notification; same-day rows at different values are kept (revisions).
 */
function parseBanz(kind: 'de-banz-current' | 'de-banz-history', table: DecodedTable): RegisterSnapshot {
  const all = namedRows(table.sheets[0]?.rows ?? [], LAYOUT);
  const seen = new Set<string>();
  const rows = all.filter((row) => {
    const key = JSON.stringify([row.holder, row.isin, row.percent, row.date]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return snapshotOf(kind, issuersFromNotifications(rows, kind === 'de-banz-history'), all.length);
}

/** The Bundesanzeiger's open list of net short positions (CSV export). */
export const banzCurrent = readerOf({ decode: decodeBanz, parse: (t) => parseBanz('de-banz-current', t) });

/** The Bundesanzeiger's historical export: every row kept as history; a row below 0.5% is a close. */
export const banzHistory = readerOf({ decode: decodeBanz, parse: (t) => parseBanz('de-banz-history', t) });
