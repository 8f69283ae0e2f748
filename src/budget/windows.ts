/** The two fixed windows of the budget. */
export type BudgetWindow = 'minute' | 'day';

/**
 * Start of the fixed window of length `lengthMs` that holds `at`. Epoch milliseconds count no leap
 * seconds, so with a day of 86,400,000 ms the windows start at 00:00 UTC.
 */
export function windowStart(at: number, lengthMs: number): number {
  return Math.floor(at / lengthMs) * lengthMs;
}

/** Start of the window after the one that holds `at`: when its tokens come back. */
export function nextWindowStart(at: number, lengthMs: number): number {
  return windowStart(at, lengthMs) + lengthMs;
}
