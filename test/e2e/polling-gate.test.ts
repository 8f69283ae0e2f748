import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import type { ScenarioChange } from '../../src/sandbox/index.js';
import { startStack, sweepOutcomes, usePerTest, waitFor, withSweepsPaused } from './harness.js';

const DAY_MS = 10_000;

const eventKeys = (changes: readonly ScenarioChange[]) =>
  changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort();

async function loggedKeys(app: App): Promise<string[]> {
  const events = await app.ctx.eventLog.recent({ limit: 1_000 });
  return events.map((e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`).sort();
}

describe('polling: the last_updated gate', () => {
  const current = usePerTest();

  it('a day of unchanged sweeps costs one request each (day = 10 s); a change polls every issuer once, events exactly the changes', {
    timeout: 60_000,
  }, async () => {
    const stack = await startStack({
      issuers: 6,
      seed: 41,
      config: {
        poll: { gateInterval: '250ms' },
        budget: { perMinute: 6_000, perDay: 5_000_000, reserve: 10, dayWindow: DAY_MS },
      },
    });
    current.stack = stack;
    const { sandbox } = stack;
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const app = await stack.openApp();
    current.app = app;
    const sweepsPerDay = app.settings.plan.gateChecksPerDay;
    expect(sweepsPerDay).toBe(DAY_MS / 250);
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);

    // A whole compressed day of sweeps with no data change.
    await waitFor(
      'a day of unchanged sweeps',
      async () => (await sweepOutcomes(app)).filter((o) => o === 'unchanged').length >= sweepsPerDay,
      DAY_MS * 3,
      250,
    );
    await withSweepsPaused(app, async () => {
      const sweeps = await sweepOutcomes(app);
      expect(sandbox.stats.count({ operation: 'issuers' })).toBe(sweeps.length);
      // Each baseline: status=active, and status=all once for the change-rate history (a sweep is spare).
      expect(sandbox.stats.count({ operation: 'positions' })).toBe(2 * ids.length);
      for (const id of ids) expect(sandbox.stats.count({ operation: 'positions', issuerId: id })).toBe(2);
      expect(sandbox.stats.count({ status: 200 })).toBe(sandbox.stats.requests.length);
    });

    const from = sandbox.stats.requests.length;
    const changes = sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    const latest = sandbox.scenario.lastUpdated();
    await waitFor('every issuer polled after the change', async () =>
      [...(await app.ctx.snapshots.getMany(ids)).values()].every((s) => s.lastUpdated === latest),
    );
    await waitFor('the events', async () => (await loggedKeys(app)).length >= changes.length);
    // More sweeps after the change: they find the dataset followed and poll nothing.
    const sweepsNow = (await sweepOutcomes(app)).length;
    await waitFor('more sweeps', async () => (await sweepOutcomes(app)).length >= sweepsNow + 8);

    await withSweepsPaused(app, async () => {
      const since = sandbox.stats.requests.slice(from);
      const sweeps = await sweepOutcomes(app);
      expect(sandbox.stats.count({ operation: 'issuers' })).toBe(sweeps.length);
      const closedIssuers = new Set(changes.filter((c) => c.kind === 'closed').map((c) => c.issuerId));
      for (const id of ids) {
        // status=active once; status=all once more when a holder closed (the final disclosure).
        const polls = since.filter((r) => r.operation === 'positions' && r.issuerId === id);
        expect({ id, polls: polls.length }).toEqual({ id, polls: closedIssuers.has(id) ? 2 : 1 });
      }
      expect(await loggedKeys(app)).toEqual(eventKeys(changes));
    });
  });
});
