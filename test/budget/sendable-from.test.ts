import { describe, expect, it } from 'vitest';
import { sendableFrom } from '../helpers/budget-rules.js';

// The window-end rule; the take script applies it to Redis' time (rate-budget.test.ts checks it there).

const REAL = { minuteMs: 60_000, dayMs: 86_400_000 };
const COMPRESSED = { minuteMs: 2_000, dayMs: 30_000 };

describe('sendableFrom', () => {
  it.each<[string, { minuteMs: number; dayMs: number }, number, number]>([
    [
      'mid-minute: at once',
      REAL,
      Date.UTC(2025, 2, 14, 12, 30, 15, 250),
      Date.UTC(2025, 2, 14, 12, 30, 15, 250),
    ],
    ['a window start: at once', REAL, Date.UTC(2025, 2, 14, 12, 31), Date.UTC(2025, 2, 14, 12, 31)],
    [
      'exactly the margin (1 s) before a minute ends: at once',
      REAL,
      Date.UTC(2025, 2, 14, 12, 30, 59),
      Date.UTC(2025, 2, 14, 12, 30, 59),
    ],
    [
      'inside the margin of a minute: the next minute',
      REAL,
      Date.UTC(2025, 2, 14, 12, 30, 59, 1),
      Date.UTC(2025, 2, 14, 12, 31),
    ],
    [
      'the last millisecond of a UTC day: the next day',
      REAL,
      Date.UTC(2025, 2, 14, 23, 59, 59, 999),
      Date.UTC(2025, 2, 15),
    ],
    ['2 s windows: the margin shrinks to 500 ms (outside it)', COMPRESSED, 1_000_001_400, 1_000_001_400],
    ['2 s windows: the margin shrinks to 500 ms (inside it)', COMPRESSED, 1_000_001_600, 1_000_002_000],
    ['30 s days on 2 s minutes: the day end is a minute end', COMPRESSED, 1_000_019_900, 1_000_020_000],
  ])('%s', (_name, windows, at, expected) => {
    expect(sendableFrom(at, windows.minuteMs, windows.dayMs)).toBe(expected);
  });
});
