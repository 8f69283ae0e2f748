import { stringify } from 'csv-stringify/sync';
import type { DeliveryRecord, RecordedAttempt } from '../state/delivery-record.js';
import { matchingPages, type RecordQuery } from './search.js';

/** The export's formats: RFC 4180 CSV, or JSON Lines (values exactly as recorded). */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;

/** An export format. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The CSV's columns, in order: one row per attempt's answer. */
export const EXPORT_COLUMNS = [
  'at',
  'channel',
  'channel_kind',
  'delivery_id',
  'message_id',
  'type',
  'issuer_ids',
  'issuers',
  'holders',
  'kinds',
  'events',
  'event_ids',
  'disclosed_on',
  'first_seen',
  'answer',
  'action',
  'cause',
  'status',
  'error',
] as const;

type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number>;

/** One attempt as a flat row: lists joined with `; `, absent values empty. */
export function exportRow(row: RecordedAttempt): ExportRow {
  return {
    at: new Date(row.at).toISOString(),
    channel: row.channel,
    channel_kind: row.channelKind,
    delivery_id: row.deliveryId,
    message_id: row.messageId ?? '',
    type: row.type,
    issuer_ids: row.issuers.map((i) => i.id).join('; '),
    issuers: row.issuers.map((i) => i.name).join('; '),
    holders: row.holders.join('; '),
    kinds: row.kinds.join('; '),
    events: row.events,
    event_ids: (row.eventIds ?? []).join('; '),
    // Both times of the message's events: the dates the sources give them, and when first seen.
    disclosed_on: (row.disclosedOn ?? []).join('; '),
    first_seen: (row.firstSeen ?? []).join('; '),
    answer: row.answer,
    action: row.action ?? '',
    cause: row.cause ?? '',
    status: row.status ?? '',
    error: row.error ?? '',
  };
}

/** One JSON Lines record: the attempt as recorded, with its time as ISO 8601. */
function jsonLine(row: RecordedAttempt): string {
  const { id: _id, at, ...rest } = row;
  return `${JSON.stringify({ at: new Date(at).toISOString(), ...rest })}\n`;
}

function csvChunk(rows: readonly RecordedAttempt[], header: boolean): string {
  // csv-stringify quotes what RFC 4180 needs quoted; records end with CRLF as the RFC says. A name from
  // the upstream that starts with = + - @ gets a leading ' so a spreadsheet shows it instead of running it.
  return stringify(rows.map(exportRow), {
    header,
    columns: [...EXPORT_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { number: (value) => String(value) },
  });
}

/**
 * The export of a query, oldest first, as text chunks that each end with a line break (the CSV header
 * comes first even when nothing matches), read a page at a time so any range streams in bounded memory.
 */
export async function* exportChunks(
  record: DeliveryRecord,
  query: RecordQuery,
  format: ExportFormat,
): AsyncGenerator<string> {
  let first = true;
  for await (const rows of matchingPages(record, query)) {
    yield format === 'csv' ? csvChunk(rows, first) : rows.map(jsonLine).join('');
    first = false;
  }
  if (first && format === 'csv') yield csvChunk([], true);
}
