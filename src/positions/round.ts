/** Rounds a percentage to 2 decimals, as most registers print them (the sandbox's generated values). */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Rounds a percentage to 4 decimals, the precision at which positions are compared and stored. */
export function round4(value: number): number {
  const rounded = Math.round(value * 10_000) / 10_000;
  // Normalise -0 so hashes and JSON never depend on the sign of a zero.
  return rounded === 0 ? 0 : rounded;
}
