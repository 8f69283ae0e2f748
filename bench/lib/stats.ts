/** A figure over repeated runs: its median and its spread (lowest and highest run). */
export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** The q-quantile (0..1) of values, linearly interpolated; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const a = sorted[low] ?? Number.NaN;
  const b = sorted[high] ?? Number.NaN;
  return a + (b - a) * (at - low);
}

/** The median and range of one figure over runs. */
export function spread(values: readonly number[]): Spread {
  const finite = values.filter((v) => Number.isFinite(v));
  return {
    median: quantile(finite, 0.5),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
    runs: finite.length,
  };
}

/** Least-squares slope of y over x (units of y per unit of x); NaN with fewer than two points. */
export function slope(points: readonly { x: number; y: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

/** A number with `digits` decimals, or `-` when it is not finite. */
export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

/** `median (min–max)` with `digits` decimals; just the median when every run agrees. */
export function formatSpread(s: Spread, digits = 1): string {
  const median = fixed(s.median, digits);
  if (s.runs < 2 || fixed(s.min, digits) === fixed(s.max, digits)) return median;
  return `${median} (${fixed(s.min, digits)}–${fixed(s.max, digits)})`;
}
