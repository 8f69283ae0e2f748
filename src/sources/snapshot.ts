import type { RegisterKind } from '../config/schema/sources.js';
import { holderKey } from '../positions/holder-key.js';
import { DISCLOSURE_THRESHOLD } from '../positions/threshold-story.js';
import type {
  AggregatePoint,
  IssuerAggregate,
  NamedPosition,
  RegisterIssuer,
  RegisterSnapshot,
} from './types.js';

/** One data row of a named-holder register, already typed. */
export interface PositionRow {
  isin: string;
  lei?: string;
  issuer: string;
  holder: string;
  percent: number;
  date: string;
  /** A history's date a later notification replaced this row (the FSMA's "Change Position Date"). */
  replacedOn?: string;
}

/**
 * Issuers from named-position rows: grouped by ISIN, the latest row per holder key kept (a file such
 * as the AFM's "actueel" lists every notification of an open position). On equal dates the row that
 * comes first wins: the registers that repeat a pair list the newest first. With `history`, every row
 * is also kept, oldest first, and only the positions still held are positions ({@link isHeld}).
 */
export function issuersFromPositions(rows: readonly PositionRow[], history = false): RegisterIssuer[] {
  const byIsin = new Map<string, { issuer: RegisterIssuer; latest: Map<string, PositionRow> }>();
  for (const row of rows) {
    let entry = byIsin.get(row.isin);
    if (entry === undefined) {
      entry = { issuer: issuerOfRow(row, history), latest: new Map() };
      byIsin.set(row.isin, entry);
    }
    const position = namedPosition(row.holder, row.percent, row.date);
    entry.issuer.history?.push(position);
    const seen = entry.latest.get(position.holderKey);
    if (seen === undefined || row.date > seen.date) entry.latest.set(position.holderKey, row);
  }
  return [...byIsin.values()].map(({ issuer, latest }) => {
    issuer.positions = [...latest.values()]
      .filter((row) => !history || isHeld(row))
      .map((row) => namedPosition(row.holder, row.percent, row.date))
      .sort(byPercentThenKey);
    issuer.history?.sort((a, b) => a.date.localeCompare(b.date) || a.holderKey.localeCompare(b.holderKey));
    return issuer;
  });
}

/**
 * Whether a history's latest row of a holder is a position still held. A history lists notifications,
 * and its latest one per holder is not always a position: not when it is below the public threshold
 * (the notification that ended a public position, as the AFM's), nor when the register says a later
 * notification replaced it (the FSMA's change date: that one is in the current file, or is a fall below
 * 0.5% the FSMA never publishes). Read alone, a history cannot tell which; it holds neither.
 */
function isHeld(row: Pick<PositionRow, 'percent' | 'replacedOn'>): boolean {
  return row.percent >= DISCLOSURE_THRESHOLD && row.replacedOn === undefined;
}

/** The issuer a position row names, with no position yet (and an empty history when kept). */
export function issuerOfRow(row: PositionRow, history: boolean): RegisterIssuer {
  const issuer: RegisterIssuer = { key: row.isin, isin: row.isin, name: row.issuer, positions: [] };
  if (row.lei !== undefined) issuer.lei = row.lei;
  if (history) issuer.history = [];
  return issuer;
}

/** A named position with its holder key; the name trimmed (Sweden pads them). */
export function namedPosition(holder: string, percent: number, date: string): NamedPosition {
  const name = holder.trim().replace(/\s+/g, ' ');
  return { holder: name, holderKey: holderKey(name), percent, date };
}

/** An issuer that carries only an aggregate (the UK ANSP, Sweden's aggregate file). */
export function aggregateIssuer(
  id: { isin?: string; lei?: string; name: string },
  aggregate: IssuerAggregate,
): RegisterIssuer {
  const key = id.isin ?? `lei:${id.lei ?? ''}`;
  const issuer: RegisterIssuer = { key, name: id.name.trim(), positions: [], aggregate };
  if (id.isin !== undefined) issuer.isin = id.isin;
  if (id.lei !== undefined) issuer.lei = id.lei;
  return issuer;
}

/** A snapshot with its issuers sorted by key, so two reads of one file compare equal. */
export function snapshotOf(
  kind: RegisterKind,
  issuers: RegisterIssuer[],
  rows: number,
  extra: {
    content?: RegisterSnapshot['content'];
    publishedOn?: string | undefined;
    namesHolders?: boolean;
    aggregateThreshold?: number;
  } = {},
): RegisterSnapshot {
  const snapshot: RegisterSnapshot = {
    kind,
    content: extra.content ?? 'positions',
    issuers: [...issuers].sort((a, b) => a.key.localeCompare(b.key)),
    rows,
    namesHolders: extra.namesHolders ?? true,
  };
  if (extra.publishedOn !== undefined) snapshot.publishedOn = extra.publishedOn;
  if (extra.aggregateThreshold !== undefined) snapshot.aggregateThreshold = extra.aggregateThreshold;
  return snapshot;
}

function byPercentThenKey(a: NamedPosition, b: NamedPosition): number {
  return b.percent - a.percent || a.holderKey.localeCompare(b.holderKey);
}

/** One dated aggregate value of one share, as a history file lists it. */
export interface PointRow {
  isin: string;
  name: string;
  point: AggregatePoint;
}

/**
 * Issuers from aggregate histories: grouped by ISIN (names differ in case between files), points
 * oldest first. With `current`, the latest point above 0 is also the issuer's aggregate, counted
 * from that threshold (a 0 is a close: no aggregate).
 */
export function issuersFromPoints(
  rows: readonly PointRow[],
  current?: { thresholdPercent: number },
): RegisterIssuer[] {
  const byIsin = new Map<string, RegisterIssuer & { aggregateHistory: AggregatePoint[] }>();
  for (const row of rows) {
    const issuer = byIsin.get(row.isin) ?? {
      key: row.isin,
      isin: row.isin,
      name: row.name,
      positions: [],
      aggregateHistory: [],
    };
    issuer.aggregateHistory.push(row.point);
    byIsin.set(row.isin, issuer);
  }
  return [...byIsin.values()].map((issuer) => {
    issuer.aggregateHistory.sort((a, b) => a.date.localeCompare(b.date));
    const latest = issuer.aggregateHistory.at(-1);
    if (current && latest && latest.percent > 0) {
      issuer.aggregate = {
        percent: latest.percent,
        date: latest.date,
        thresholdPercent: current.thresholdPercent,
      };
    }
    return issuer;
  });
}
