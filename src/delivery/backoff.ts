/** Exponential backoff with jitter: `base × 2^(attempt-1)`, less up to half of it at random. */
export function backoffMs(baseMs: number, attempt: number, random: () => number = Math.random): number {
  const full = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.round(full * (1 - 0.5 * random()));
}
