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
