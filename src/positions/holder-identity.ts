import { type HolderAlias, identityKeyOf, leiKey, leiOf } from '../text/holder-aliases.js';
import { holderKey } from './holder-key.js';

/** A holder as a position or an event names it: its holder key (the name's), name, and LEI where a register gives one. */
export interface HolderRef {
  holderKey: string;
  holder?: string;
  holderLei?: string;
}

/**
 * One holder across registers (issue 34). A holder a register names with its LEI (France) is keyed by
 * it, `lei:<LEI>`; elsewhere by its holder key (the name, spelling-insensitive). The alias table
 * (`holders.aliases`) maps a name or an LEI to a canonical holder, itself a name or an LEI, followed
 * until it ends (the config refuses a cycle): a fund's spellings, its entities and the LEI a register
 * gives it become one identity. Stored keys stay as they are (snapshots and event ids by name key), so
 * an alias added or removed changes what the console groups and what entries match at once, and never
 * reads as a close and an opening. Pure, built once per settings.
 */
export class HolderIdentities {
  /** No aliases: every holder is its own key. */
  static readonly none = new HolderIdentities([]);

  readonly #next = new Map<string, string>();
  /** The text the table gives a canonical name, for display. */
  readonly #names = new Map<string, string>();

  constructor(aliases: readonly HolderAlias[]) {
    for (const { alias, holder } of aliases) {
      const source = identityKeyOf(alias);
      const target = identityKeyOf(holder);
      if (source !== '' && target !== '' && source !== target) this.#next.set(source, target);
      if (leiOf(holder) === undefined) this.#names.set(target, holder.trim());
    }
  }

  /** The canonical identity key an identity key resolves to through the table (itself without an alias). */
  resolve(key: string): string {
    let current = key;
    // The config refuses cycles; the bound keeps a table built elsewhere from looping.
    for (let step = 0; step <= this.#next.size; step += 1) {
      const next = this.#next.get(current);
      if (next === undefined) return current;
      current = next;
    }
    return current;
  }

  /**
   * The identity of a holder: its LEI's alias, or its name's alias, or its LEI, or its holder key. The
   * name's alias wins over a bare LEI so that aliasing a spelling to a group takes the LEI holder along.
   */
  keyOf(holder: HolderRef): string {
    const byName = this.resolve(holder.holderKey);
    if (holder.holderLei === undefined) return byName;
    const own = leiKey(holder.holderLei);
    const byLei = this.resolve(own);
    if (byLei !== own || byName === holder.holderKey) return byLei;
    return byName;
  }

  /**
   * True when an entry names a holder the operator declared: an LEI, or a name or LEI the alias table
   * lists (either side). Such an entry is known whatever the snapshots hold (`check` does not refuse it).
   */
  declares(entry: string): boolean {
    const own = identityKeyOf(entry);
    if (own === '') return false;
    if (leiOf(entry) !== undefined || this.#next.has(own)) return true;
    return [...this.#next.values()].includes(own);
  }

  /** The display name the table gives an identity (a canonical name), if any. */
  nameOf(key: string): string | undefined {
    return this.#names.get(key);
  }

  /**
   * The identities a typed or configured entry names: the entry itself resolved (an LEI, a name), and
   * every aliased spelling the entry starts, resolved (so `Marshall Wace` names the identity that
   * `Marshall Wace LLP` is aliased to).
   */
  entryKeys(entry: string): Set<string> {
    const own = identityKeyOf(entry);
    const keys = new Set<string>();
    if (own === '') return keys;
    keys.add(this.resolve(own));
    if (own.startsWith('lei:')) return keys;
    for (const source of this.#next.keys()) if (source.startsWith(own)) keys.add(this.resolve(source));
    return keys;
  }

  /**
   * True when a configured or typed entry (a filter's or a subscriber's `holders`, a mute) names this
   * holder: its key or name starts with the entry's key (`Marshall Wace` matches `MARSHALL WACE LLP`),
   * or the entry names the holder's identity (an LEI, an alias).
   */
  matches(entry: string, holder: HolderRef): boolean {
    const key = holderKey(entry);
    if (key !== '' && holder.holderKey.startsWith(key)) return true;
    if (key !== '' && holder.holder !== undefined && holderKey(holder.holder).startsWith(key)) return true;
    const wanted = this.entryKeys(entry);
    return wanted.size > 0 && wanted.has(this.keyOf(holder));
  }
}
