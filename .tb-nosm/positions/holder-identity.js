import { identityKeyOf, leiKey, leiOf } from "../text/holder-aliases.js";
import { holderKey } from "./holder-key.js";
class HolderIdentities {
  /** No aliases: every holder is its own key. */
  static none = new HolderIdentities([]);
  #next = /* @__PURE__ */ new Map();
  /** The text the table gives a canonical name, for display. */
  #names = /* @__PURE__ */ new Map();
  constructor(aliases) {
    for (const { alias, holder } of aliases) {
      const source = identityKeyOf(alias);
      const target = identityKeyOf(holder);
      if (source !== "" && target !== "" && source !== target) this.#next.set(source, target);
      if (leiOf(holder) === void 0) this.#names.set(target, holder.trim());
    }
  }
  /** The canonical identity key an identity key resolves to through the table (itself without an alias). */
  resolve(key) {
    let current = key;
    for (let step = 0; step <= this.#next.size; step += 1) {
      const next = this.#next.get(current);
      if (next === void 0) return current;
      current = next;
    }
    return current;
  }
  /**
   * The identity of a holder: its LEI's alias, or its name's alias, or its LEI, or its holder key. The
   * name's alias wins over a bare LEI so that aliasing a spelling to a group takes the LEI holder along.
   */
  keyOf(holder) {
    const byName = this.resolve(holder.holderKey);
    if (holder.holderLei === void 0) return byName;
    const own = leiKey(holder.holderLei);
    const byLei = this.resolve(own);
    if (byLei !== own || byName === holder.holderKey) return byLei;
    return byName;
  }
  /**
   * True when an entry names a holder the operator declared: an LEI, or a name or LEI the alias table
   * lists (either side). Such an entry is known whatever the snapshots hold (`check` does not refuse it).
   */
  declares(entry) {
    const own = identityKeyOf(entry);
    if (own === "") return false;
    if (leiOf(entry) !== void 0 || this.#next.has(own)) return true;
    return [...this.#next.values()].includes(own);
  }
  /** The display name the table gives an identity (a canonical name), if any. */
  nameOf(key) {
    return this.#names.get(key);
  }
  /**
   * The identities a typed or configured entry names: the entry itself resolved (an LEI, a name), and
   * every aliased spelling the entry starts, resolved (so `Marshall Wace` names the identity that
   * `Marshall Wace LLP` is aliased to).
   */
  entryKeys(entry) {
    const own = identityKeyOf(entry);
    const keys = /* @__PURE__ */ new Set();
    if (own === "") return keys;
    keys.add(this.resolve(own));
    if (own.startsWith("lei:")) return keys;
    for (const source of this.#next.keys()) if (source.startsWith(own)) keys.add(this.resolve(source));
    return keys;
  }
  /**
   * True when a configured or typed entry (a filter's or a subscriber's `holders`, a mute) names this
   * holder: its key or name starts with the entry's key (`Marshall Wace` matches `MARSHALL WACE LLP`),
   * or the entry names the holder's identity (an LEI, an alias).
   */
  matches(entry, holder) {
    const key = holderKey(entry);
    if (key !== "" && holder.holderKey.startsWith(key)) return true;
    if (key !== "" && holder.holder !== void 0 && holderKey(holder.holder).startsWith(key)) return true;
    const wanted = this.entryKeys(entry);
    return wanted.size > 0 && wanted.has(this.keyOf(holder));
  }
}
export {
  HolderIdentities
};
