import { DAY_MS } from "../../time/units.js";
function linear(d0, d1, r0, r1) {
  const span = d1 - d0 || 1;
  return (x) => r0 + (x - d0) / span * (r1 - r0);
}
const STEPS = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100];
function valueTicks(max, count = 5) {
  const step = STEPS.find((s) => max / s <= count) ?? Math.ceil(max / count);
  const ticks = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Math.round(v * 1e3) / 1e3);
  return ticks.length > 1 ? ticks : [0, step];
}
function timeTicks(from, to, count = 6) {
  const span = to - from;
  if (span <= 0) return [from];
  if (span >= 75 * DAY_MS) {
    const months = [];
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
  const ticks = [];
  for (let t = Math.ceil(from / DAY_MS) * DAY_MS; t <= to; t += step) ticks.push(t);
  return ticks;
}
function timeLabel(t, long) {
  const d = new Date(t);
  const month = d.toLocaleString("en-GB", { month: "short", timeZone: "UTC" });
  return long ? `${month} ${d.getUTCFullYear()}` : `${d.getUTCDate()} ${month}`;
}
export {
  linear,
  timeLabel,
  timeTicks,
  valueTicks
};
