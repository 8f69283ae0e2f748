/** Full-jitter exponential backoff: before retry `n` (0-based) wait `baseMs * 2^n * random()`, floored. */
export function backoffDelay(retry: number, baseMs: number, random: () => number): number {
  return Math.floor(baseMs * 2 ** retry * random());
}
