import { holderKeyOf, latestByKey } from "./holder-diff.js";
const DISCLOSURE_THRESHOLD = 0.5;
class IssuerBook {
  constructor(issuer, history = [], active = [], cap = Number.POSITIVE_INFINITY, habits = {}) {
    this.issuer = issuer;
    this.cap = cap;
    this.history = history;
    this.active = active;
    this.habits = { activity: habits.activity ?? 1, usual: habits.usual ?? this.current().size };
  }
  issuer;
  cap;
  history;
  active;
  habits;
  /**
   * Records a disclosure and makes it the holder's active row, at `position` in the list. Other
   * spellings of the holder leave the list unless `keepOtherSpellings`.
   */
  disclose(row, position, keepOtherSpellings = false) {
    this.history.push(row);
    const key = holderKeyOf(row.position_holder);
    this.active = this.active.filter(
      (other) => other.position_holder !== row.position_holder && (keepOtherSpellings || holderKeyOf(other.position_holder) !== key)
    );
    this.active.splice(Math.min(position, this.active.length), 0, row);
  }
  /** Removes every active row of a holder key. */
  removeKey(key) {
    this.active = this.active.filter((row) => holderKeyOf(row.position_holder) !== key);
  }
  /** Whether an opened position still fits under the cap. */
  hasRoom() {
    return this.current().size < this.cap;
  }
  /** The current row of each active holder key. */
  current() {
    return latestByKey(this.active);
  }
  /** A copy of the register, safe to hand out. */
  copyActive() {
    return this.active.map((row) => ({ ...row }));
  }
}
function deriveActive(history) {
  return [...latestByKey(history).values()].filter((row) => row.value >= DISCLOSURE_THRESHOLD);
}
export {
  DISCLOSURE_THRESHOLD,
  IssuerBook,
  deriveActive
};
