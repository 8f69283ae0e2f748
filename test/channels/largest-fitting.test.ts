import { describe, expect, it } from 'vitest';
import { largestFitting } from '../../src/channels/largest-fitting.js';

describe('largestFitting: how many leading groups one message carries', () => {
  it.each<[string, number, number]>([
    ['none beyond the first fits', 10, 1],
    ['all fit', 10, 10],
    ['a power of two is the last that fits', 40, 16],
    ['between two probes', 40, 23],
    ['the last but one', 7, 6],
  ])('%s', (_name, count, limit) => {
    const asked: number[] = [];
    const fits = (k: number) => {
      asked.push(k);
      return k <= limit;
    };
    expect(largestFitting(count, fits)).toBe(limit);
    // Never asks for more groups than there are, nor for a lone group (which always goes).
    expect(asked.every((k) => k >= 2 && k <= count)).toBe(true);
  });
});
