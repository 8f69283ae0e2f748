import { holderKey } from './holder-key.js';

/** The words of a name as holder keys: NFKC, lower-cased, letters and digits only. */
function words(name: string): string[] {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * True when a typed holder (`shaw`, `D.E. Shaw`, `deshaw`) names this holder: the typed text's entity
 * key ({@link holderKey}) starts the holder's key at one of its words. So every spelling of one fund
 * matches (`D. E. Shaw & Co., L.P.` and `D.E. SHAW & CO LP` share a key), a word inside the name does
 * (`shaw`), and a fragment inside a word does not (`shaw` is not `Bradshaw Capital`). An empty query
 * matches nothing. The one matching of the console's searches and `shortwatch route`.
 */
export function holderQueryMatches(query: string, holderName: string): boolean {
  const key = holderKey(query);
  if (key === '') return false;
  const parts = words(holderName);
  return parts.some((_, start) => parts.slice(start).join('').startsWith(key));
}
