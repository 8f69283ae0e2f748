import type { RegimeBoundaryConfig } from '../../config/schema/sources.js';

/** A market whose named holders end on a known date, whatever source shows its issuers. */
interface MarketBoundary {
  /** The ISIN country (the first two letters). */
  market: string;
  /** The last publication that names holders. */
  namedUntil: string;
  /** The first day of what replaces them (aggregates): from then on, holders dropped are the boundary. */
  replacedFrom: string;
  /** What replaces them, for the ops notice. */
  what: string;
}

/**
 * The built-in calendar: the UK names holders in the positions published up to 10 July 2026; its
 * aggregated net short positions (ANSP) start on 13 July 2026.
 */
export const MARKET_BOUNDARIES: readonly MarketBoundary[] = [
  { market: 'GB', namedUntil: '2026-07-10', replacedFrom: '2026-07-13', what: "the FCA's ANSP" },
];

const ISIN = /^([A-Z]{2})[A-Z0-9]{9}\d$/u;

/** The market of an issuer: an explicit one, else its ISIN's country; undefined when neither is known. */
export function marketOf(issuer: {
  isin?: string | undefined;
  market?: string | undefined;
}): string | undefined {
  if (issuer.market !== undefined) return issuer.market.toUpperCase();
  return issuer.isin === undefined ? undefined : ISIN.exec(issuer.isin)?.[1];
}

/** The calendar's boundary of a market that has passed by `date` (YYYY-MM-DD), if any. */
export function passedBoundary(market: string | undefined, date: string): MarketBoundary | undefined {
  return MARKET_BOUNDARIES.find((b) => b.market === market && date >= b.replacedFrom);
}

/**
 * True when an issuer's named holders have ended by `date`: the calendar for its market, or the
 * source's own `namedHoldersUntil`. Holders it drops then are the boundary, never closes. Pure.
 */
export function pastNamedHolders(
  boundary: Pick<RegimeBoundaryConfig, 'namedHoldersUntil'>,
  market: string | undefined,
  date: string,
): boolean {
  const until = boundary.namedHoldersUntil;
  return passedBoundary(market, date) !== undefined || (until !== undefined && date > until);
}

/**
 * Fewer issuers emptied than this are closes whatever share of the source they are: on a watchlist of one
 * or two issuers, the holders of one leaving is "1 of 1", and a fund closing its positions is far likelier
 * than a source changing what it publishes (the calendar still tells a UK issuer's boundary alone).
 */
export const MASS_ENDING_FLOOR = 3;

/**
 * Where no boundary is known: a regime change only when more than `share` of the issuers that named
 * holders empty at once, at least {@link MASS_ENDING_FLOOR} of them, and a confirming read agrees; a
 * handful emptying are closes. Pure.
 */
export function isMassEnding(input: { emptied: number; named: number; share: number }): boolean {
  return input.emptied >= MASS_ENDING_FLOOR && input.emptied > input.share * input.named;
}
