import { holderKey } from './holder-key.js';

/** An LEI (ISO 17442): 18 letters or digits, then two check digits. */
const LEI = /^[A-Z0-9]{18}\d{2}$/;

/** The identity key of a holder a register names by LEI: `lei:<LEI>`. */
export function leiKey(lei: string): string {
  return `lei:${lei}`;
}

/** The LEI a text is (bare or as `lei:<LEI>`, any case), or undefined when it is a name. */
export function leiOf(text: string): string | undefined {
  const bare = text.trim().toUpperCase().replace(/^LEI:/u, '');
  return LEI.test(bare) ? bare : undefined;
}

/** A name or LEI of the alias table as an identity key: `lei:<LEI>`, or the name's holder key. */
export function identityKeyOf(text: string): string {
  const lei = leiOf(text);
  return lei === undefined ? holderKey(text) : leiKey(lei);
}

/** One entry of the alias table: a holder name or LEI, and the canonical holder (a name or an LEI) it is. */
export interface HolderAlias {
  alias: string;
  holder: string;
}

/**
 * The alias table's first cycle, as the index of the entry it starts at and the names in it, or
 * undefined: `a → b → a` would leave a holder with no canonical identity.
 */
export function aliasCycle(aliases: readonly HolderAlias[]): { index: number; names: string[] } | undefined {
  const next = new Map<string, { to: string; name: string; index: number }>();
  aliases.forEach(({ alias, holder }, index) => {
    const source = identityKeyOf(alias);
    const target = identityKeyOf(holder);
    // Two spellings of one key alias nothing: not a cycle.
    if (source !== target) next.set(source, { to: target, name: alias, index });
  });
  for (const start of next.keys()) {
    const path: string[] = [];
    const seen = new Set<string>();
    let current: string | undefined = start;
    while (current !== undefined && next.has(current)) {
      if (seen.has(current))
        return current === start ? { index: next.get(start)?.index ?? 0, names: path } : undefined;
      seen.add(current);
      const step = next.get(current);
      path.push(step?.name ?? current);
      current = step?.to;
    }
  }
  return undefined;
}
