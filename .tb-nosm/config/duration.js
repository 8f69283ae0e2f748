import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "../time/units.js";
const UNIT_MS = {
  ms: 1,
  s: SECOND_MS,
  m: MINUTE_MS,
  h: HOUR_MS,
  d: DAY_MS
};
const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/;
function parseDuration(input) {
  if (typeof input === "number") return Number.isFinite(input) && input >= 0 ? input : void 0;
  const match = PATTERN.exec(input);
  if (!match) return /^\s*\d+\s*$/.test(input) ? Number(input) : void 0;
  const [, amount, unit] = match;
  return Math.round(Number(amount) * (UNIT_MS[unit ?? "ms"] ?? 1));
}
function formatDuration(ms) {
  if (!Number.isFinite(ms)) return "never";
  if (ms < 1e3) return `${Math.round(ms)}ms`;
  const parts = [];
  let rest = Math.round(ms / 1e3);
  for (const [unit, size] of [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
    ["s", 1]
  ]) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.slice(0, 2).join(" ");
}
export {
  formatDuration,
  parseDuration
};
