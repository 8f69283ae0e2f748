import { createHash } from 'node:crypto';

/** What a source listed in one read: per issuer key, the keys of its named holders (none for aggregates). */
export type Listing = ReadonlyMap<string, readonly string[]>;

/** What a read removed from the one before it, with a fingerprint two agreeing reads share. */
export interface Disappearance {
  issuers: { removed: number; before: number };
  holders: { removed: number; before: number };
  fingerprint: string;
}

/** The issuers and named holders `before` listed that `after` does not. Pure. */
export function disappearance(before: Listing, after: Listing): Disappearance {
  const removedIssuers = [...before.keys()].filter((key) => !after.has(key));
  const removedHolders: string[] = [];
  let holders = 0;
  for (const [issuer, named] of before) {
    const now = new Set(after.get(issuer) ?? []);
    holders += named.length;
    for (const holder of named) if (!now.has(holder)) removedHolders.push(`${issuer}|${holder}`);
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([removedIssuers.sort(), removedHolders.sort()]))
    .digest('hex')
    .slice(0, 16);
  return {
    issuers: { removed: removedIssuers.length, before: before.size },
    holders: { removed: removedHolders.length, before: holders },
    fingerprint,
  };
}

/**
 * True when a read removes more than `share` of the issuers or of the named holders the last read
 * listed: more often a partial file or a glitch than the market, so it waits for a confirming read. Pure.
 */
export function needsConfirmation(d: Disappearance, share: number): boolean {
  const over = ({ removed, before }: { removed: number; before: number }) =>
    removed > 0 && removed > share * before;
  return over(d.issuers) || over(d.holders);
}

/** The disappearance in words, for `status`, the console and the ops notice. */
export function describeDisappearance(d: Disappearance): string {
  return `${d.issuers.removed} of ${d.issuers.before} issuers and ${d.holders.removed} of ${d.holders.before} named holders gone`;
}

/** What one API answer closed: its closes, the holders it left, and this dataset refresh's closes so far. */
export interface AnswerCloses {
  closed: number;
  left: number;
  /** Closes counted across the watchlist in this refresh, this answer's included; undefined when not counted. */
  refreshClosed?: number | undefined;
  /** Positions the last sweep counted across the watchlist. */
  positions?: number | undefined;
}

/**
 * The same guard on the API, where one poll sees one issuer: an answer that closes every holder the
 * issuer had (its whole list), or whose closes take the dataset refresh's past `share` of the positions
 * the last sweep counted, is confirmed by a second answer before it commits. Pure.
 */
export function answerNeedsConfirmation(a: AnswerCloses, share: number): boolean {
  if (a.closed === 0) return false;
  if (a.left === 0) return true;
  const { refreshClosed = 0, positions = 0 } = a;
  return positions > 0 && refreshClosed > share * positions;
}

/** True when the refresh's closes must be counted to decide: the answer closes some holders, not all. Pure. */
export function countsRefreshCloses(a: Pick<AnswerCloses, 'closed' | 'left'>): boolean {
  return a.closed > 0 && a.left > 0;
}
