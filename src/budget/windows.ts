/** The two fixed windows of the budget. */
export type BudgetWindow = 'minute' | 'day';

/**
 * Start of the fixed window of length `lengthMs` that holds `at`. Epoch milliseconds count no leap
 * seconds, so with a day of 86,400,000 ms the windows start at 00:00 UTC. The budget's scripts apply the
 * same rule to Redis' time (budget-lua.ts); this is the rule for readers and models of it.
 */
export function windowStart(at: number, lengthMs: number): number {
  return Math.floor(at / lengthMs) * lengthMs;
}

/** Start of the window after the one that holds `at`: when its tokens come back. */
export function nextWindowStart(at: number, lengthMs: number): number {
  return windowStart(at, lengthMs) + lengthMs;
}

/** Longest time a request may take from its token to the upstream's count. */
const BOUNDARY_MARGIN_MS = 1_000;

/**
 * How close to a window's end no token is granted (a request granted there could be counted upstream in
 * the next window, which our count does not know of): 1 s, or a quarter of a minute window under 4 s.
 */
export function boundaryMargin(minuteMs: number): number {
  return Math.min(BOUNDARY_MARGIN_MS, minuteMs / 4);
}
