import { DISCLOSURE_THRESHOLD } from '../positions/threshold-story.js';
import { issuerOfRow, namedPosition, type PositionRow } from './snapshot.js';
import type { NamedPosition, RegisterIssuer } from './types.js';

/** One notification of a file that lists every notification of a position (a history), typed. */
export interface NotificationRow extends PositionRow {
  /** When the holder filed it, where the register says (Austria's `Reporting Date`). */
  reportedOn?: string;
  /** The holder's LEI, where the register gives one (France). */
  holderLei?: string;
  /** The register no longer publishes this notification (France's end of publication): not held. */
  ended?: boolean;
}

/**
 * Issuers from a file of notifications (Austria's history, the Bundesanzeiger's historical export, the
 * AMF's full export, KNF's history): grouped by ISIN, the latest notification per holder key, ranked by
 * position date, then reporting date (a replacement filed later wins), then file order (the first
 * listed wins). A holder whose latest notification is below the 0.5% disclosure threshold, or no longer
 * published, holds nothing: that row is the position's close. With `history`, every row is kept too,
 * oldest first. Rows a register cancelled are the parser's to drop before.
 */
export function issuersFromNotifications(
  rows: readonly NotificationRow[],
  history: boolean,
): RegisterIssuer[] {
  const byIsin = new Map<string, { issuer: RegisterIssuer; latest: Map<string, Ranked> }>();
  rows.forEach((row, order) => {
    let entry = byIsin.get(row.isin);
    if (entry === undefined) {
      entry = { issuer: issuerOfRow(row, history), latest: new Map() };
      byIsin.set(row.isin, entry);
    }
    const position = notified(row);
    entry.issuer.history?.push(position);
    const seen = entry.latest.get(position.holderKey);
    const ranked: Ranked = {
      position,
      order,
      held: row.ended !== true && row.percent >= DISCLOSURE_THRESHOLD,
    };
    if (seen === undefined || later(ranked, seen)) entry.latest.set(position.holderKey, ranked);
  });
  return [...byIsin.values()].map(({ issuer, latest }) => {
    issuer.positions = [...latest.values()]
      .filter((ranked) => ranked.held)
      .map((ranked) => ranked.position)
      .sort((a, b) => b.percent - a.percent || a.holderKey.localeCompare(b.holderKey));
    issuer.history?.sort((a, b) => a.date.localeCompare(b.date) || a.holderKey.localeCompare(b.holderKey));
    return issuer;
  });
}

interface Ranked {
  position: NamedPosition;
  order: number;
  held: boolean;
}

function later(candidate: Ranked, seen: Ranked): boolean {
  const a = candidate.position;
  const b = seen.position;
  if (a.date !== b.date) return a.date > b.date;
  const reported = (a.reportedOn ?? '').localeCompare(b.reportedOn ?? '');
  return reported !== 0 ? reported > 0 : candidate.order < seen.order;
}

function notified(row: NotificationRow): NamedPosition {
  const position = namedPosition(row.holder, row.percent, row.date);
  if (row.reportedOn !== undefined) position.reportedOn = row.reportedOn;
  if (row.holderLei !== undefined) position.holderLei = row.holderLei;
  return position;
}
