import { describe, expect, it } from 'vitest';
import { Random } from '../../src/sandbox/prng.js';

describe('Random.weighted', () => {
  it('picks items in proportion to their weights', () => {
    const rng = new Random(3);
    const seen = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const item = rng.weighted(['a', 'b', 'c'], (x) => ({ a: 1, b: 3, c: 0 })[x] ?? 0) ?? '';
      seen.set(item, (seen.get(item) ?? 0) + 1);
    }
    expect(seen.get('c')).toBeUndefined();
    expect((seen.get('b') ?? 0) / 10_000).toBeGreaterThan(0.72);
    expect((seen.get('b') ?? 0) / 10_000).toBeLessThan(0.78);
  });

  it.each([
    ['an empty list', []],
    ['only zero weights', [0, 0]],
    ['only negative weights', [-1, -2]],
  ])('gives undefined for %s', (_name, weights: number[]) => {
    expect(new Random(1).weighted(weights, (w) => w)).toBeUndefined();
  });

  it('is deterministic for a seed', () => {
    const draw = (seed: number) => {
      const rng = new Random(seed);
      return Array.from({ length: 20 }, () => rng.weighted([1, 2, 3, 4], (w) => w));
    };
    expect(draw(9)).toEqual(draw(9));
    expect(draw(9)).not.toEqual(draw(10));
  });
});
