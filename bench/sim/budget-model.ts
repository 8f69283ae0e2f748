import { nextWindowStart, windowStart } from '../../src/budget/windows.js';

/** Caps and window lengths, as `budget.*` in the config. */
export interface BudgetModelOptions {
  perMinute: number;
  perDay: number;
  reserve: number;
  minuteMs: number;
  dayMs: number;
}

/** The answer to one take, shaped like RateBudget's. */
export type ModelDecision =
  | { granted: true }
  | { granted: false; reason: 'minute' | 'day' | 'reserve'; retryAt: number };

/**
 * The rules of the shared budget's TAKE_SCRIPT (src/budget/budget-lua.ts) in memory, for a virtual
 * clock: two fixed windows aligned on multiples of their length (UTC midnight for days), the day's last
 * `reserve` tokens kept from non-interactive takes, the day checked before the minute. No 429 block:
 * the simulated service never refuses a client that keeps to the caps. Checked against the real
 * RateBudget in test/bench/budget-model.test.ts.
 */
export class BudgetModel {
  readonly #options: BudgetModelOptions;
  #minuteStart = Number.NaN;
  #minuteUsed = 0;
  /** Granted tokens per day window start (also the requests-a-day figure). */
  readonly perDay = new Map<number, number>();

  constructor(options: BudgetModelOptions) {
    this.#options = options;
  }

  /** Takes one token at `now` if the rules allow it. */
  take(now: number, interactive = false): ModelDecision {
    const { perMinute, perDay, reserve, minuteMs, dayMs } = this.#options;
    // The virtual clock never goes back, so only the current minute window needs a count.
    const minuteStart = windowStart(now, minuteMs);
    if (minuteStart !== this.#minuteStart) {
      this.#minuteStart = minuteStart;
      this.#minuteUsed = 0;
    }
    const dayStart = windowStart(now, dayMs);
    const minuteUsed = this.#minuteUsed;
    const dayUsed = this.perDay.get(dayStart) ?? 0;
    const dayEnd = nextWindowStart(now, dayMs);
    if (dayUsed >= perDay) return { granted: false, reason: 'day', retryAt: dayEnd };
    if (!interactive && dayUsed >= perDay - reserve)
      return { granted: false, reason: 'reserve', retryAt: dayEnd };
    if (minuteUsed >= perMinute) {
      return { granted: false, reason: 'minute', retryAt: nextWindowStart(now, minuteMs) };
    }
    this.#minuteUsed = minuteUsed + 1;
    this.perDay.set(dayStart, dayUsed + 1);
    return { granted: true };
  }

  /** Tokens left in the day window holding `now`, as `RateBudget.usage().day.left` reads them. */
  dayLeft(now: number): number {
    const used = this.perDay.get(windowStart(now, this.#options.dayMs)) ?? 0;
    return Math.max(0, this.#options.perDay - used);
  }
}
