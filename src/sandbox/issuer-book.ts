import type { Issuer, IssuerPosition } from '../upstream/schemas.js';
import { holderKeyOf, latestByKey } from './holder-diff.js';

/** The threshold of public disclosure, in percent of issued capital. */
export const DISCLOSURE_THRESHOLD = 0.5;

/** How a register behaves from step to step. */
export interface BookHabits {
  /** How often each of its positions changes, relative to an ordinary issuer's (crowded names: more). */
  activity: number;
  /** The number of holders that opened positions bring it back to. */
  usual: number;
}

/**
 * One issuer's register: every disclosure ever made (`history`) and the rows the service lists as
 * active. Like a real register it keys rows by the exact holder name, so an old spelling of one
 * fund can linger beside the new one.
 */
export class IssuerBook {
  readonly history: IssuerPosition[];
  active: IssuerPosition[];
  readonly habits: BookHabits;

  constructor(
    public issuer: Issuer,
    history: IssuerPosition[] = [],
    active: IssuerPosition[] = [],
    /** Opened positions stop here, so an issuer cannot grow without bound. */
    readonly cap: number = Number.POSITIVE_INFINITY,
    /** By default an ordinary issuer that keeps the holders it lists today. */
    habits: Partial<BookHabits> = {},
  ) {
    this.history = history;
    this.active = active;
    this.habits = { activity: habits.activity ?? 1, usual: habits.usual ?? this.current().size };
  }

  /**
   * Records a disclosure and makes it the holder's active row, at `position` in the list. Other
   * spellings of the holder leave the list unless `keepOtherSpellings`.
   */
  disclose(row: IssuerPosition, position: number, keepOtherSpellings = false): void {
    this.history.push(row);
    const key = holderKeyOf(row.position_holder);
    this.active = this.active.filter(
      (other) =>
        other.position_holder !== row.position_holder &&
        (keepOtherSpellings || holderKeyOf(other.position_holder) !== key),
    );
    this.active.splice(Math.min(position, this.active.length), 0, row);
  }

  /** Removes every active row of a holder key. */
  removeKey(key: string): void {
    this.active = this.active.filter((row) => holderKeyOf(row.position_holder) !== key);
  }

  /** Whether an opened position still fits under the cap. */
  hasRoom(): boolean {
    return this.current().size < this.cap;
  }

  /** The current row of each active holder key. */
  current(): Map<string, IssuerPosition> {
    return latestByKey(this.active);
  }

  /** A copy of the register, safe to hand out. */
  copyActive(): IssuerPosition[] {
    return this.active.map((row) => ({ ...row }));
  }
}

/** The active list a plain register implies: each holder's latest row, when at or over the threshold. */
export function deriveActive(history: readonly IssuerPosition[]): IssuerPosition[] {
  return [...latestByKey(history).values()].filter((row) => row.value >= DISCLOSURE_THRESHOLD);
}
