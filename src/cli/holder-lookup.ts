import { holderKey, holderQueryMatches } from '../positions/index.js';

/** A typed holder read against the holders shortwatch knows for an issuer. */
export type HolderLookup =
  | { kind: 'known'; name: string }
  | { kind: 'unknown'; name: string }
  | { kind: 'ambiguous'; names: string[] };

/**
 * Which known holder a typed name means, by the matching the console's searches use: one fund (one
 * entity key) is that fund's name as the register spells it; several are ambiguous; none leaves the
 * typed name as it is (a holder the issuer has not listed yet).
 */
export function lookupHolder(typed: string, known: readonly string[]): HolderLookup {
  const byKey = new Map<string, string>();
  for (const name of known) if (holderQueryMatches(typed, name)) byKey.set(holderKey(name), name);
  const names = [...byKey.values()];
  const [only] = names;
  if (only !== undefined && names.length === 1) return { kind: 'known', name: only };
  if (names.length > 1) return { kind: 'ambiguous', names: names.sort() };
  return { kind: 'unknown', name: typed };
}
