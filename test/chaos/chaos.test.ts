import { describe, expect, it } from 'vitest';
import { runChaos } from './engine.js';
import { BOUNDED, seedFrom } from './profiles.js';

const seed = seedFrom(process.env.CHAOS_SEED);

describe('chaos (bounded): faults in every layer, each channel gets every event exactly once', () => {
  it(`seed ${seed}: nothing missing, nothing twice, nothing invented`, { timeout: 600_000 }, async () => {
    const report = await runChaos({
      seed,
      profile: BOUNDED,
      stepTimeoutMs: 120_000,
      drainTimeoutMs: 60_000,
      replay: `CHAOS_SEED=${seed} npx vitest run test/chaos/chaos.test.ts`,
    });
    console.log(`chaos story (seed ${seed}):\n${report.story}`);
    expect(report.ok, `chaos run failed (seed ${seed}):\n${report.story}`).toBe(true);
  });
});
