import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { collectStatus } from '../../src/ops/status.js';
import { holderKey } from '../../src/positions/index.js';
import { type Stack, startStack, sweepOutcomes, usePerTest, waitFor } from './harness.js';

// Issue 20, findings 3 and 5, from outside: the daemon in this process against the sandbox over HTTP.
// An issuer list without a version no longer stops detection, and an issuer that keeps failing waits out
// a backoff instead of spending a request at every sweep.

async function noticeKeys(app: App): Promise<string[]> {
  return (await app.ctx.notices.list()).map((n) => n.key).sort();
}

async function moreSweeps(app: App, count: number): Promise<void> {
  const target = (await sweepOutcomes(app)).length + count;
  await waitFor(`${count} more sweeps`, async () => (await sweepOutcomes(app)).length >= target, 60_000, 50);
}

describe('one polling state per issuer (issue 20)', () => {
  const current = usePerTest();

  async function start(
    seed: number,
    config: Record<string, unknown>,
  ): Promise<{ app: App; stack: Stack; ids: string[] }> {
    const stack = await startStack({ issuers: 4, seed, channels: ['slack'], config });
    current.stack = stack;
    const app = await stack.openApp();
    current.app = app;
    const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await app.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length);
    return { app, stack, ids };
  }

  it('a list that says last_updated: null: changes are found at the budget pace, a notice says so until versions return', async () => {
    // A long gate interval: before, nothing was polled until maxStaleness (a day); a tick is 30 s here.
    const { app, stack, ids } = await start(81, { poll: { gateInterval: '30s' } });
    const { scenario } = stack.sandbox;
    const [a] = ids;
    if (!a) throw new Error('scenario too small');
    const version = scenario.lastUpdated();
    scenario.setLastUpdated(null);
    // The next gate check reads the list without a version (a check is planned each tick).
    await app.queues.sweep.add('sweep-now', {});
    await waitFor('the dataset-unversioned notice', async () =>
      (await noticeKeys(app)).includes('dataset-unversioned'),
    );
    scenario.disclose(a, 'Blind Spot Capital', 0.9);
    scenario.setLastUpdated(null);
    await waitFor(
      'the change found while the list has no version',
      async () =>
        (await app.ctx.eventLog.recent({ issuerId: a, limit: 10 })).some(
          (e) => e.holderKey === holderKey('Blind Spot Capital'),
        ),
      40_000,
    );
    expect(await noticeKeys(app)).toContain('dataset-unversioned');
    // Polls come at the budget's pace, several per issuer within one 30-s tick.
    expect(stack.sandbox.stats.count({ operation: 'positions' })).toBeGreaterThan(2 * ids.length);
    scenario.setLastUpdated(new Date(Date.parse(version ?? '2026-01-01T00:00:00Z') + 60_000).toISOString());
    // A blind poll that sees the version asks for the list at the next sweep (here one a second).
    await waitFor(
      'the notice cleared',
      async () => {
        await app.queues.sweep.add('sweep-now', {});
        return !(await noticeKeys(app)).includes('dataset-unversioned');
      },
      30_000,
      1_000,
    );
  }, 90_000);

  it('an issuer failing with 400 and one with 500 back off; a new version gives the 500 one early try; status shows the next try', async () => {
    const { app, stack, ids } = await start(83, { poll: { gateInterval: '250ms' } });
    const { sandbox } = stack;
    const [bad, broken, other] = ids;
    if (!bad || !broken || !other) throw new Error('scenario too small');
    sandbox.faults.inject({
      operation: 'positions',
      issuerId: bad,
      status: 400,
      times: Number.POSITIVE_INFINITY,
    });
    sandbox.faults.inject({
      operation: 'positions',
      issuerId: broken,
      status: 500,
      times: Number.POSITIVE_INFINITY,
    });
    // The dataset moves: both are due at every gate check from now on, until their polls succeed.
    sandbox.scenario.disclose(other, 'Moving Data Partners', 0.7);
    const SWEEPS = 40;
    await moreSweeps(app, SWEEPS);
    const requests = (id: string) => sandbox.stats.count({ operation: 'positions', issuerId: id });
    // The backoff doubles from one sweep interval: k tries take (2^k - 1) intervals, so in 40 sweeps about
    // log2(40 + 1) tries, not one per sweep. Sweeps are counted, never timed: the backoff counts time and a
    // loaded machine can run a sweep several intervals late, so each sweep may stand for up to 8 intervals.
    // (+2: the first try, and a backoff ending within half an interval of a sweep ends at that sweep.)
    // The doubling itself is the unit test's (test/state/polling-state.test.ts).
    const steps = Math.ceil(Math.log2(SWEEPS * 8 + 1)) + 2;
    expect(requests(bad)).toBeGreaterThanOrEqual(2);
    expect(requests(bad)).toBeLessThanOrEqual(steps);
    expect(requests(bad)).toBeLessThan(await sweepOutcomes(app).then((o) => o.length));
    // A 5xx is retried inside the first job (3 attempts of 3 tries each), then once per backoff step.
    expect(requests(broken)).toBeLessThanOrEqual(9 + 3 * steps);
    const health = await app.ctx.pollHealth.all();
    expect(health.get(bad)?.failing?.cause).toBe('bad-request');
    expect(health.get(broken)?.failing?.cause).toBe('server');
    expect(health.get(broken)?.failing?.retryAt).toBeGreaterThan(Date.now());
    await waitFor('the notices naming both', async () => {
      const keys = await noticeKeys(app);
      return keys.includes(`poll-overdue-${bad}`) && keys.includes(`poll-overdue-${broken}`);
    });
    const notice = (await app.ctx.notices.list()).find((n) => n.key === `poll-overdue-${bad}`);
    expect(notice?.text).toContain('400');
    expect(notice?.text).toContain('next try');
    const report = await collectStatus(app);
    expect(report.issuers.find((i) => i.id === broken)?.problem).toContain('next try');

    // A new dataset version: the 500 gets one early try, the 400 waits its backoff out.
    const [badBefore, brokenBefore] = [requests(bad), requests(broken)];
    sandbox.scenario.disclose(other, 'Moving Data Partners', 0.8);
    await waitFor('the early try of the 500', () => requests(broken) > brokenBefore, 20_000);
    await moreSweeps(app, 4);
    expect(requests(bad)).toBe(badBefore);
  }, 120_000);

  it('a positions answer older than the list (a replica behind) leaves the issuer lagging: polled again, the change found', async () => {
    const { app, stack, ids } = await start(85, { poll: { gateInterval: '250ms' } });
    const { sandbox } = stack;
    const [a] = ids;
    if (!a) throw new Error('scenario too small');
    const before = await fetch(`${sandbox.url}/issuers/${a}/positions?status=active`, {
      headers: { authorization: 'Bearer sandbox-key' },
    });
    const staleAnswer: unknown = await before.json();
    // The list moves; the next positions answer still comes from a replica that has not.
    sandbox.faults.inject({ operation: 'positions', issuerId: a, body: staleAnswer });
    sandbox.scenario.disclose(a, 'Replica Lag Capital', 0.75);
    await waitFor('the stale answer served', () => sandbox.faults.pending() === 0);
    await waitFor(
      'the change found by the poll after the lagging one',
      async () =>
        (await app.ctx.eventLog.recent({ issuerId: a, limit: 10 })).some(
          (e) => e.holderKey === holderKey('Replica Lag Capital'),
        ),
      20_000,
    );
    const snapshot = await app.ctx.snapshots.get(a);
    expect(snapshot?.lastUpdated).toBe(sandbox.scenario.lastUpdated());
    expect((await app.ctx.pollHealth.all()).get(a)?.lagging).toBeUndefined();
  }, 60_000);
});
