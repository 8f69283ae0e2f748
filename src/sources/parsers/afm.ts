import { type NamedTableLayout, namedRows } from '../named-table.js';
import { csvDecoder, readerOf } from '../reader.js';
import { issuersFromPositions, snapshotOf } from '../snapshot.js';
import type { DecodedTable, RegisterSnapshot } from '../types.js';
import { cellText } from '../values.js';

// English and Dutch exports share the layout; only the header words differ.
const LAYOUT: NamedTableLayout = {
  header: {
    holder: /^(position holder|positie houder)$/,
    issuer: /^(name of the issuer|naam van de emittent)$/,
    isin: /^isin$/,
    percent: /^(net short position|netto shortpositie)$/,
    date: /^(position date|positiedatum)$/,
  },
  trailer: /^disclaimer/i,
  trailerRequired: true,
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The trailer's "Date last update 12 Aug 2025" (or Dutch "Datum laatste update …") as `YYYY-MM-DD`. */
export function afmUpdatedOn(table: DecodedTable): string | undefined {
  const rows = table.sheets[0]?.rows ?? [];
  for (const row of rows.slice(-3)) {
    const match = /update (\d{2}) ([A-Za-z]{3}) (\d{4})$/.exec(cellText(row[0]));
    const month = match === null ? -1 : MONTHS.indexOf((match[2] ?? '').toLowerCase());
    if (match !== null && month >= 0) return `${match[3]}-${String(month + 1).padStart(2, '0')}-${match[1]}`;
  }
  return undefined;
}

function parseAfm(kind: 'afm-current' | 'afm-history', table: DecodedTable): RegisterSnapshot {
  const rows = namedRows(table.sheets[0]?.rows ?? [], LAYOUT);
  const issuers = issuersFromPositions(rows, kind === 'afm-history');
  return snapshotOf(kind, issuers, rows.length, { publishedOn: afmUpdatedOn(table) });
}

// Windows-1252, `;`, every field quoted, LF or CRLF; "actueel" repeats each open position's notifications.
const decode = csvDecoder('windows-1252', ';');

/** The AFM's current file (`nettoshortpositiesactueel.csv`): the latest notification per holder and ISIN. */
export const afmCurrent = readerOf({ decode, parse: (table) => parseAfm('afm-current', table) });

/** The AFM's history file (`nettoshortpositieshistorie.csv`): every notification, kept as `history`. */
export const afmHistory = readerOf({ decode, parse: (table) => parseAfm('afm-history', table) });
