import type { PositionEvent } from '../positions/types.js';
import { issuerGroupKey } from './event-story.js';
import { formatInstant, formatPeriod } from './time.js';
import type { DigestMessage } from './types.js';

/** How many of the largest moves a "Top movers" section lists. */
export const TOP_MOVERS = 5;

/**
 * The section shows only in a digest of at least this many changes, where the movers are at most half
 * of the list: in a shorter one it would repeat most of what follows.
 */
export const TOP_MOVERS_MIN_CHANGES = 2 * TOP_MOVERS;

/** Newest detection first; ties keep their given order. */
export function newestFirst(a: PositionEvent, b: PositionEvent): number {
  return Date.parse(b.detectedAt) - Date.parse(a.detectedAt);
}

/**
 * The largest moves by |Δ|, ties to the newest; none in a digest too short for the section to add
 * anything ({@link TOP_MOVERS_MIN_CHANGES}). Closes count by the value they left the list at.
 */
export function topMovers(events: readonly PositionEvent[]): PositionEvent[] {
  if (events.length < TOP_MOVERS_MIN_CHANGES) return [];
  return [...events]
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || newestFirst(a, b))
    .slice(0, TOP_MOVERS);
}

/** One issuer's events in a digest. */
export interface DigestIssuer {
  issuer: { id: string; name: string };
  /** In the order they happened, so a close reads after the cut that came before it. */
  events: PositionEvent[];
}

/** Events grouped by issuer: the issuer with the newest event first (the latest news on top). */
export function digestIssuers(events: readonly PositionEvent[]): DigestIssuer[] {
  const groups = new Map<string, DigestIssuer>();
  for (const event of [...events].sort(newestFirst)) {
    const group = groups.get(issuerGroupKey(event));
    if (group) group.events.unshift(event);
    else groups.set(issuerGroupKey(event), { issuer: event.issuer, events: [event] });
  }
  return [...groups.values()];
}

/**
 * The period for a subject or headline: `20 Nov 07:30 – 21 Nov 07:30`, `23 Nov 07:30 – 08:45` within one
 * day, and `23 Nov 08:45` when both ends read the same (a period sealed at the instant it opened).
 */
export function shortPeriod(period: DigestMessage['period']): string {
  const from = formatInstant(period.from, period.timezone);
  const to = formatInstant(period.to, period.timezone);
  const zone = ` (${period.timezone})`;
  if (from === to) return `${from}${zone}`;
  const fromDay = from.replace(/ \d\d:\d\d$/, '');
  const toDay = to.replace(/ \d\d:\d\d$/, '');
  if (fromDay === toDay) return `${from} – ${to.slice(toDay.length + 1)}${zone}`;
  return formatPeriod(period);
}
