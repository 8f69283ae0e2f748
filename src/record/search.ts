import { holderQueryMatches } from '../positions/index.js';
import type { DeliveryRecord, RecordedAttempt } from '../state/delivery-record.js';

/** A search of the record: a time range (epoch ms, both ends inclusive) and optional filters. */
export interface RecordQuery {
  sinceMs: number;
  untilMs: number;
  channel?: string;
  /** Any of these channels (a subscriber's immediate and digest outboxes), beside `channel`. */
  channels?: readonly string[];
  /** An issuer id, or words of its name (matched as holders are). */
  issuer?: string;
  /** A holder by entity key: any spelling of the fund, or a word of its name. */
  holder?: string;
}

/** An issuer by id (any case) or by words of its name, matched the way holders are. */
function issuerQueryMatches(query: string, issuer: { id: string; name: string }): boolean {
  return issuer.id.toLowerCase() === query.toLowerCase() || holderQueryMatches(query, issuer.name);
}

/** Whether one recorded attempt passes the query's filters (the time range is the reader's). */
export function recordMatches(row: RecordedAttempt, query: RecordQuery): boolean {
  if (query.channel && row.channel !== query.channel) return false;
  if (query.channels && !query.channels.includes(row.channel)) return false;
  const issuer = query.issuer?.trim();
  if (issuer && !row.issuers.some((i) => issuerQueryMatches(issuer, i))) return false;
  const holder = query.holder?.trim();
  if (holder && !row.holders.some((name) => holderQueryMatches(holder, name))) return false;
  return true;
}

/** The query's matching rows, oldest first, a page at a time (the export). */
export async function* matchingPages(
  record: DeliveryRecord,
  query: RecordQuery,
): AsyncGenerator<RecordedAttempt[]> {
  for await (const page of record.pages(query.sinceMs, query.untilMs)) {
    const rows = page.filter((row) => recordMatches(row, query));
    if (rows.length > 0) yield rows;
  }
}

/** What a bounded search found: matching rows newest first, and whether it stopped before the range's start. */
export interface SearchResult {
  rows: RecordedAttempt[];
  /** True when `maxScanned` rows were read before the range was exhausted. */
  cut: boolean;
}

/**
 * The newest matching rows, at most `limit`, reading at most `maxScanned` rows of the range, so a page
 * view costs the same whatever the record holds.
 */
export async function searchNewest(
  record: DeliveryRecord,
  query: RecordQuery,
  limit: number,
  maxScanned: number,
): Promise<SearchResult> {
  const rows: RecordedAttempt[] = [];
  let scanned = 0;
  for await (const page of record.pages(query.sinceMs, query.untilMs, true)) {
    for (const row of page) {
      if (recordMatches(row, query)) rows.push(row);
      if (rows.length >= limit) return { rows, cut: false };
    }
    scanned += page.length;
    if (scanned >= maxScanned) return { rows, cut: true };
  }
  return { rows, cut: false };
}
