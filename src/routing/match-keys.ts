import { holderKey } from '../positions/holder-key.js';

/** An issuer name compared case- and whitespace-insensitively: NFKC, lower-cased, spaces collapsed. */
export function issuerNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** True when a configured or typed issuer entry names this issuer, by exact id or by normalised name. */
export function issuerMatches(entry: string, issuer: { id: string; name: string }): boolean {
  if (entry === issuer.id) return true;
  const key = issuerNameKey(entry);
  return key !== '' && key === issuerNameKey(issuer.name);
}

/**
 * True when a holder entry's key equals the event's holder key or is a prefix of it, so
 * `Marshall Wace` also matches `MARSHALL WACE LLP`. Keys have no word boundaries left, so a prefix can
 * over-match (`UBS` matches `UBS O'Connor`); we accept that because registers append legal suffixes far
 * more often than unrelated funds share a leading name. An entry with an empty key matches nothing.
 */
export function holderMatches(entry: string, eventHolderKey: string): boolean {
  const key = holderKey(entry);
  return key !== '' && eventHolderKey.startsWith(key);
}
