import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/upstream/backoff.js';

describe('backoffDelay', () => {
  it.each<[string, number, number, number, number]>([
    ['first retry, top of the range', 0, 500, 0.999, 499],
    ['first retry, middle', 0, 500, 0.5, 250],
    ['second retry doubles the range', 1, 500, 0.5, 500],
    ['third retry quadruples it', 2, 500, 0.5, 1000],
    ['full jitter may be zero', 3, 500, 0, 0],
    ['zero base never waits', 5, 0, 0.9, 0],
  ])('%s', (_name, retry, baseMs, random, expected) => {
    expect(backoffDelay(retry, baseMs, () => random)).toBe(expected);
  });
});
