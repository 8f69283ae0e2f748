import { boundaryMargin, nextWindowStart } from '../../src/budget/windows.js';

/**
 * From when a token may be taken at `at`: `at` itself, or the next window's start when `at` is within
 * `boundaryMargin` of a window's end. The take script holds by this rule on Redis' time; this is the rule
 * written out, so a table of cases states it (rate-budget.test.ts checks the script).
 */
export function sendableFrom(at: number, minuteMs: number, dayMs: number): number {
  const margin = boundaryMargin(minuteMs);
  const ends = [minuteMs, dayMs].map((length) => nextWindowStart(at, length));
  return Math.max(at, ...ends.filter((end) => end - at < margin));
}
