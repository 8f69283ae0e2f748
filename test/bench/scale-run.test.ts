import { describe, expect, it } from 'vitest';
import { runScale } from '../../bench/sim/scale-run.js';

// The scale benchmark's run: the new policy and the one before issue 16 on the same register and
// publications, so their figures compare like for like.
describe('runScale', () => {
  const run = runScale({
    watchlistSize: 100,
    seed: 2,
    days: 5,
    drainDays: 1,
    requestMs: 300,
    publications: 'clustered',
    warmUpDays: 20,
    burnInDays: 2,
  });

  it('runs shortwatch, the policy before issue 16, round-robin and the oracle on the same changes', () => {
    for (const outcome of [run.shortwatch, run.before, run.roundRobin, run.oracle]) {
      if ('refused' in outcome) throw new Error(`refused: ${outcome.refused}`);
      expect(outcome.latenciesMs.length + outcome.netted + outcome.undetected).toBe(run.changes);
      expect(outcome.maxRequestsPerDay).toBeLessThanOrEqual(950);
    }
    expect(run.changes).toBeGreaterThan(0);
  });

  it('finds every change of a 100-issuer watchlist within minutes, as the old policy did', () => {
    if ('refused' in run.shortwatch || 'refused' in run.before) throw new Error('refused');
    const worst = (l: number[]) => Math.max(...l);
    expect(worst(run.shortwatch.latenciesMs)).toBeLessThan(10 * 60_000);
    expect(worst(run.shortwatch.latenciesMs)).toBeLessThanOrEqual(worst(run.before.latenciesMs) + 60_000);
  });

  it('reports the old planner refusing what it refused: more issuers than requests a day', () => {
    const big = runScale({
      watchlistSize: 1_000,
      seed: 2,
      days: 1,
      drainDays: 0,
      requestMs: 300,
      publications: 'clustered',
      warmUpDays: 5,
      burnInDays: 0,
    });
    expect(big.before).toHaveProperty('refused');
    expect(big.shortwatch).not.toHaveProperty('refused');
  });
});
