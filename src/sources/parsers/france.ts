import { type NamedTableLayout, namedRowsWithCells, optionalColumn } from '../named-table.js';
import { issuersFromNotifications, type NotificationRow } from '../notifications.js';
import { csvDecoder, readerOf } from '../reader.js';
import { snapshotOf } from '../snapshot.js';
import type { DecodedTable, RegisterSnapshot } from '../types.js';
import { cellText, requireDate } from '../values.js';

// The AMF's export on data.gouv.fr: `;`, UTF-8 with a BOM, fields quoted. Headers are matched with or
// without accents (`Détenteur`, `Emetteur`); `Ratio` may carry a decimal comma; dates ISO or dd/mm/yyyy.
const LAYOUT: NamedTableLayout = {
  header: {
    holder: /^d[ée]tenteur de la position courte nette$/,
    issuer: /^[ée]metteur( \/ issuer)?$/,
    isin: /^code isin$/,
    percent: /^ratio$/,
    date: /^date de d[ée]but (de )?position$/,
  },
};

const HOLDER_LEI = /^legal entity identifier d[ée]tenteur$/;
const PUBLISHED_FROM = /^date de d[ée]but de publication position$/;
const PUBLISHED_UNTIL = /^date de fin de publication position$/;
const LEI = /^[A-Z0-9]{18}\d{2}$/;

/**
 * The full history since 2012: a notification is open while its end of publication is empty. The
 * latest row per holder and ISIN is the position (summing every row would put FORVIA at 323%); one
 * whose publication ended, or below 0.5%, holds nothing. The holder's LEI and the start of publication
 * ride on each position.
 */
function parseAmf(table: DecodedTable): RegisterSnapshot {
  const sheet = table.sheets[0]?.rows ?? [];
  const read = namedRowsWithCells(sheet, LAYOUT);
  const header = read[0]?.header ?? 0;
  const lei = optionalColumn(sheet, header, HOLDER_LEI);
  const from = optionalColumn(sheet, header, PUBLISHED_FROM);
  const until = optionalColumn(sheet, header, PUBLISHED_UNTIL);
  const rows = read.map(({ row, cells }, i): NotificationRow => {
    const notification: NotificationRow = row;
    const holderLei = lei === undefined ? '' : cellText(cells[lei]).toUpperCase();
    if (LEI.test(holderLei)) notification.holderLei = holderLei;
    // The start of publication is when the AMF made it public: a late filing shows as a gap.
    if (from !== undefined && cellText(cells[from]) !== '')
      notification.reportedOn = requireDate(cells[from], `data row ${i + 1}`);
    if (until !== undefined && cellText(cells[until]) !== '') {
      requireDate(cells[until], `data row ${i + 1}`);
      notification.ended = true;
    }
    return notification;
  });
  return snapshotOf('fr-amf', issuersFromNotifications(rows, true), rows.length);
}

/** The AMF's net short positions export (data.gouv.fr): open positions, every row kept as history. */
export const amf = readerOf({ decode: csvDecoder('utf-8', ';'), parse: parseAmf });
