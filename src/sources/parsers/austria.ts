import { type NamedTableLayout, namedRowsWithCells, optionalColumn } from '../named-table.js';
import { issuersFromNotifications, type NotificationRow } from '../notifications.js';
import { csvDecoder, readerOf } from '../reader.js';
import { snapshotOf } from '../snapshot.js';
import type { DecodedTable, RegisterSnapshot } from '../types.js';
import { cellText, requireDate } from '../values.js';

// The FMA's history: `,`-separated, quoted only where needed (decimal-comma values are, whole numbers
// not), CRLF with no break after the last row, ISO dates.
const LAYOUT: NamedTableLayout = {
  header: {
    holder: /^position holder$/,
    issuer: /^issuer$/,
    isin: /^isin( code)?$/,
    percent: /^net short position ?\(%\)$/,
    date: /^position date$/,
  },
};

const REPORTED = /^reporting date$/;
const CANCELLED = /^cancellation date$/;

/**
 * Every notification the FMA lists, cancelled ones dropped first (a cancelled row often sits beside its
 * replacement for the same position date, and cancelled values can be absurd: 18.5%, 21%), then the
 * latest per holder and ISIN; a latest row below 0.5% is the position's close. The reporting date rides
 * on each position: a filing up to a year late is told with both dates.
 */
function parseFma(table: DecodedTable): RegisterSnapshot {
  const sheet = table.sheets[0]?.rows ?? [];
  const read = namedRowsWithCells(sheet, LAYOUT);
  const header = read[0]?.header ?? 0;
  const reported = optionalColumn(sheet, header, REPORTED);
  const cancelled = optionalColumn(sheet, header, CANCELLED);
  const rows: NotificationRow[] = [];
  read.forEach(({ row, cells }, i) => {
    if (cancelled !== undefined && cellText(cells[cancelled]) !== '') return;
    const notification: NotificationRow = row;
    if (reported !== undefined && cellText(cells[reported]) !== '')
      notification.reportedOn = requireDate(cells[reported], `data row ${i + 1}`);
    rows.push(notification);
  });
  return snapshotOf('at-fma-history', issuersFromNotifications(rows, true), read.length);
}

/** The FMA's historical net short positions (CSV): every notification, closes and late filings included. */
export const fmaHistory = readerOf({ decode: csvDecoder('utf-8', ','), parse: parseFma });
