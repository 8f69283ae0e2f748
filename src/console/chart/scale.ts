import { DAY_MS } from '../../time/units.js';
/** A linear map from a data range onto a pixel range. */
export function linear(d0: number, d1: number, r0: number, r1: number): (x: number) => number {
  const span = d1 - d0 || 1;
  return (x) => r0 + ((x - d0) / span) * (r1 - r0);
}

const STEPS = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100];

/** Round tick values from 0 to at least `max`: at most `count + 1` of them, evenly spaced. */
export function valueTicks(max: number, count = 5): number[] {
  const step = STEPS.find((s) => max / s <= count) ?? Math.ceil(max / count);
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Math.round(v * 1000) / 1000);
  return ticks.length > 1 ? ticks : [0, step];
}

/** Date ticks between `from` and `to` (epoch ms): month starts over long spans, else evenly spaced days. */
export function timeTicks(from: number, to: number, count = 6): number[] {
  const span = to - from;
  if (span <= 0) return [from];
  if (span >= 75 * DAY_MS) {
    const months: number[] = [];
    const start = new Date(from);
    let cursor = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
    while (cursor <= to) {
      months.push(cursor);
      const d = new Date(cursor);
      cursor = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    }
    const every = Math.max(1, Math.ceil(months.length / count));
    return months.filter((_, i) => i % every === 0);
  }
  const step = Math.max(DAY_MS, Math.ceil(span / count / DAY_MS) * DAY_MS);
  const ticks: number[] = [];
  for (let t = Math.ceil(from / DAY_MS) * DAY_MS; t <= to; t += step) ticks.push(t);
  return ticks;
}

/** A tick's label: `Mar 2025` for month starts over long spans, else `14 Mar`. */
export function timeLabel(t: number, long: boolean): string {
  const d = new Date(t);
  const month = d.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  return long ? `${month} ${d.getUTCFullYear()}` : `${d.getUTCDate()} ${month}`;
}
