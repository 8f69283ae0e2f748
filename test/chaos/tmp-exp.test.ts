import { it } from 'vitest';
import { runChaos } from './engine.js';
import { BOUNDED } from './profiles.js';

it('exp', { timeout: 600_000 }, async () => {
  const r = await runChaos({
    seed: 7,
    profile: {
      ...BOUNDED,
      steps: 3,
      faultsPerStep: [0, 0],
      mustInclude: ['kill-worker', 'kill-daemon', 'kill-worker'],
    },
    stepTimeoutMs: 300_000,
    drainTimeoutMs: 120_000,
    replay: 'x',
  });
  console.log(r.story);
});
