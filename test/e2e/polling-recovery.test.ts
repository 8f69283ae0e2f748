import { describe, expect, it } from 'vitest';
import { syncSchedulers } from '../../src/jobs/schedulers.js';
import { spawnDaemon, startStack, updateConfig, usePerTest, waitFor } from './harness.js';

/*
 * A process killed mid-poll leaves the issuer's poll lease and an active BullMQ job behind. Neither may
 * blind the issuer: the lease lapses within half a gate interval, and the next sweep plans the issuer
 * again (its poll deduplication lasts one sweep interval), while the job left behind finds the snapshot
 * current when BullMQ's stalled-job check (30 s here, the default) finally runs it, and spends nothing.
 */
describe('polling: recovery after a process died mid-poll', () => {
  const current = usePerTest();

  it('polls the cut-short issuers again at the first gate check after the restart', async () => {
    const stack = await startStack({
      issuers: 3,
      seed: 7,
      channels: ['slack'],
      config: { poll: { gateInterval: '3s' } },
    });
    current.stack = stack;
    const { sandbox } = stack;
    updateConfig(stack, (config) => ({
      ...config,
      upstream: { baseUrl: sandbox.url, apiKey: 'sandbox-key', timeout: '15s', retries: 0 },
    }));
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const app = await stack.openApp();
    current.app = app;
    const observer = app;
    await syncSchedulers(app.queues, app.settings.config, app.settings.plan);
    const first = await spawnDaemon(stack, 'worker');
    current.daemons.push(first);
    await waitFor('baseline', async () => (await observer.ctx.snapshots.getMany(ids)).size === ids.length);
    const before = await observer.ctx.snapshots.getMany(ids);

    sandbox.faults.inject({ operation: 'positions', delayMs: 10_000, times: ids.length });
    sandbox.scenario.step();
    await waitFor('every poll in flight', () => sandbox.faults.pending() === 0, 20_000, 20);
    first.kill('SIGKILL');
    await first.exited;

    // Taken before the spawn: the new process may run its first gate check before it reports ready.
    const restartedAt = Date.now();
    const second = await spawnDaemon(stack, 'worker');
    current.daemons.push(second);
    const repolled = async () => {
      const now = await observer.ctx.snapshots.getMany(ids);
      return ids.every((id) => now.get(id)?.polledAt !== before.get(id)?.polledAt);
    };
    await waitFor('every cut-short issuer polled again', repolled, 20_000, 50);
    // Counted in gate checks, not in wall time: the first check after the restart plans the issuers again
    // (a second may start while their polls run). Left to BullMQ's stalled-job check (30 s), the jobs
    // would wait through ten checks.
    const gateChecks = sandbox.stats.requests.filter((r) => r.operation === 'issuers' && r.at >= restartedAt);
    expect(gateChecks.length).toBeGreaterThanOrEqual(1);
    expect(gateChecks.length).toBeLessThanOrEqual(2);
  }, 60_000);
});
