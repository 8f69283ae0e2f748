import { z } from 'zod';
import type { RegisterKind } from '../../config/schema/sources.js';
import { findHeader } from '../columns.js';
import { decodeText } from '../decode.js';
import { RegisterReadError } from '../errors.js';
import { type HtmlTable, innermostTables, pageText } from '../html-table.js';
import { type NamedTableLayout, namedRows } from '../named-table.js';
import { issuersFromNotifications, type NotificationRow } from '../notifications.js';
import { readerOf } from '../reader.js';
import { snapshotOf } from '../snapshot.js';
import type { Cell, RegisterSnapshot } from '../types.js';
import { cellText, requireDate, requireIsin, requirePercent } from '../values.js';
import { decodeJson } from './norway.js';

// KNF's register table (Polish headers; the English view translates them). `Nazwa papieru` is a short
// ticker-like name (CDPROJEKT), not the issuer's legal name; a closed position reads `< 0,5`.
const LAYOUT: NamedTableLayout = {
  header: {
    holder: /^(posiadacz pozycji krótkiej|position holder)/,
    issuer: /^(nazwa papieru|name of (the )?(security|issuer))/,
    isin: /^isin$/,
    percent: /^(pozycja krótka netto|net short position)/,
    date: /^(data obliczenia pozycji|position date|calculation date)/,
  },
};

/** `1/34 (1007)`: page 1 of 34, 1,007 records in all. */
const PAGER = /(\d+)\s*\/\s*(\d+)\s*\((\d+)\)/;

/**
 * The rows of KNF's positions table on one HTML page. The bytes are UTF-8 whatever the page's meta
 * says (it declares ISO-8859-1). A page without the table (the server's "Problem wewnętrzny" page) is
 * "not read", never zero positions; a page of a longer list (`1/34 (1007)`) is `truncated`.
 */
export function knfPageRows(bytes: Uint8Array): NotificationRow[] {
  const html = decodeText(bytes, 'utf-8');
  const table = innermostTables(html).find(hasPositionsHeader);
  if (table === undefined) {
    throw new RegisterReadError(
      'html-page',
      `no positions table on the page: "${pageText(html).slice(0, 160)}"`,
    );
  }
  const pager = PAGER.exec(table.footer);
  const rows = namedRows(table.rows.map(withoutRowNumber), LAYOUT);
  if (pager !== null && Number(pager[3]) > rows.length) {
    throw new RegisterReadError(
      'truncated',
      `page ${pager[1]} of ${pager[2]} holds ${rows.length} of ${pager[3]} records (read KNF's JSON API, which pages)`,
    );
  }
  return rows;
}

function hasPositionsHeader(table: HtmlTable): boolean {
  try {
    findHeader(table.rows, LAYOUT.header, table.rows.length);
    return true;
  } catch {
    return false;
  }
}

// The first column numbers the rows (`1&nbsp;`): dropped, so a number is never read as a name.
function withoutRowNumber(row: Cell[]): Cell[] {
  return /^\d*$/.test(cellText(row[0])) ? row.slice(1) : row;
}

const recordSchema = z.object({
  HOLDER_FULL_NAME: z.string(),
  ISSUER_NAME: z.string(),
  ISIN: z.string(),
  NET_SHORT_POSITION_O: z.union([z.string(), z.number()]),
  POSITION_DATE: z.string(),
  MODIFY_DATE: z.string().nullish(),
});
const replySchema = z.object({
  status: z.string().optional(),
  total: z.number().int().min(0).optional(),
  records: z.array(recordSchema),
});

/** KNF's JSON reply (`rss_pub/JSON`, w2ui grid), its pages joined by the paged fetch. */
function knfJsonRows(json: unknown): NotificationRow[] {
  const parsed = replySchema.safeParse(json);
  if (!parsed.success) {
    throw new RegisterReadError(
      'wrong-header',
      `not KNF's records reply: ${parsed.error.issues[0]?.message}`,
    );
  }
  const { status, total, records } = parsed.data;
  if (status !== undefined && status !== 'success') {
    throw new RegisterReadError('unparseable', `KNF answered status "${status}"`);
  }
  if (total !== undefined && total !== records.length) {
    throw new RegisterReadError('truncated', `${records.length} of ${total} records`);
  }
  return records.map((record, i) => {
    const where = `record ${i + 1}`;
    return {
      isin: requireIsin(record.ISIN, where),
      // Names come HTML-escaped (`&amp;`), as the page shows them.
      issuer: pageText(record.ISSUER_NAME),
      holder: pageText(record.HOLDER_FULL_NAME),
      percent: requirePercent(record.NET_SHORT_POSITION_O, where),
      date: requireDate(record.POSITION_DATE, where),
    };
  });
}

function snapshot(kind: RegisterKind, rows: NotificationRow[], history: boolean): RegisterSnapshot {
  return snapshotOf(kind, issuersFromNotifications(rows, history), rows.length);
}

/** KNF's current positions page (HTML): one page holds the whole current list. */
export const knfHtml = {
  ...readerOf({ decode: knfPageRows, parse: (rows) => snapshot('pl-knf-html', rows, false) }),
  readsHtml: true,
};

/** KNF's JSON API, method `Default` (current positions), every page. */
export const knfJsonCurrent = readerOf({
  decode: decodeJson,
  parse: (json) => snapshot('pl-knf-json-current', knfJsonRows(json), false),
});

/** KNF's JSON API, method `RssHTable` (history: `< 0,5` rows are closes), every page; rows kept as history. */
export const knfJsonHistory = readerOf({
  decode: decodeJson,
  parse: (json) => snapshot('pl-knf-json-history', knfJsonRows(json), true),
});
