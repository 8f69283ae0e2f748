import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '../time/units.js';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: SECOND_MS,
  m: MINUTE_MS,
  h: HOUR_MS,
  d: DAY_MS,
};
const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/;

/** Parses `90s`, `2m`, `6h`, `7d`, `250ms` (or a bare number of milliseconds); undefined when unsure. */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  const match = PATTERN.exec(input);
  if (!match) return /^\s*\d+\s*$/.test(input) ? Number(input) : undefined;
  const [, amount, unit] = match;
  return Math.round(Number(amount) * (UNIT_MS[unit ?? 'ms'] ?? 1));
}

/** Renders milliseconds the way a person reads them: `2m`, `1h 30m`, `45s`, `120ms`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return 'never';
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1_000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.slice(0, 2).join(' ');
}
