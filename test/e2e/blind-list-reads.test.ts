import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { listWeight, MIN_TURN_MS } from '../../src/schedule/blind-polls.js';
import { startStack, sweepOutcomes, usePerTest, waitFor } from './harness.js';

const ISSUERS = 4;
const SWEEPS = 40;

async function moreSweeps(app: App, count: number): Promise<void> {
  const target = (await sweepOutcomes(app)).length + count;
  await waitFor(`${count} more sweeps`, async () => (await sweepOutcomes(app)).length >= target, 90_000, 50);
}

/**
 * The issuer list answers `last_updated: null` while every positions answer carries a version (issue 28,
 * item 4): the list is read at its turn in the blind rotation and once per new positions version, not at
 * every sweep because a blind poll saw a version (40 reads in 40 sweeps before).
 */
describe('an unversioned issuer list beside versioned positions', () => {
  const current = usePerTest();

  it('is read once per new positions version, not once per sweep', async () => {
    const stack = await startStack({
      issuers: ISSUERS,
      seed: 61,
      channels: ['slack'],
      config: {
        poll: { gateInterval: '250ms' },
        budget: { perMinute: 6_000, perDay: 5_000_000, reserve: 10 },
      },
    });
    current.stack = stack;
    const { sandbox } = stack;
    const app = await stack.openApp();
    current.app = app;
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);

    // From now on the list says nothing of the version; the positions answers still carry it.
    sandbox.faults.inject({
      operation: 'issuers',
      body: { data: sandbox.scenario.issuers(), last_updated: null },
      times: Number.POSITIVE_INFINITY,
    });
    const listReads = () => sandbox.stats.count({ operation: 'issuers' });
    const positionsVersion = sandbox.scenario.lastUpdated();
    expect(positionsVersion).not.toBeNull();
    const startedAt = Date.now();
    const before = listReads();
    await moreSweeps(app, SWEEPS);
    // The list's own turns in the rotation come no oftener than this (blind-polls.ts): a bound, not a
    // timing, however slowly the machine ran the sweeps.
    const turns = (since: number) =>
      Math.ceil((Date.now() - since) / (MIN_TURN_MS / listWeight(ISSUERS))) + 1;
    // One read finds the list unversioned, one answers the positions version the blind polls see, and
    // the rotation's turns: never one per sweep.
    const read = listReads() - before;
    expect(read).toBeGreaterThanOrEqual(1);
    expect(read).toBeLessThanOrEqual(2 + turns(startedAt));
    expect(read).toBeLessThan(SWEEPS / 4);

    // A new positions version asks for the list once more, at once.
    const steppedAt = Date.now();
    const afterFirst = listReads();
    expect(sandbox.scenario.step().length).toBeGreaterThan(0);
    await waitFor('the list read for the new version', async () => listReads() > afterFirst, 30_000);
    await moreSweeps(app, SWEEPS / 2);
    expect(listReads() - afterFirst).toBeLessThanOrEqual(1 + turns(steppedAt));
    expect(listReads() - afterFirst).toBeLessThan(SWEEPS / 4);
  }, 180_000);
});
