import { describe, expect, it } from 'vitest';
import { scheduleState } from '../../src/jobs/sweep.js';
import type { Snapshot } from '../../src/positions/index.js';
import { historyEvidence } from '../../src/schedule/index.js';
import { startStack, usePerTest, waitFor, withSweepsPaused } from './harness.js';

describe('change-rate evidence kept in the snapshots (issue 16)', () => {
  const current = usePerTest();

  it('a baseline fetches each history once; a poll with events counts one change and the sweep rates the issuer higher', {
    timeout: 60_000,
  }, async () => {
    const stack = await startStack({ issuers: 6, seed: 23 });
    current.stack = stack;
    const { sandbox } = stack;
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    const app = await stack.openApp();
    current.app = app;
    await app.startDaemon({ workerOnly: false });
    const snapshots = async () => app.ctx.snapshots.getMany(ids);
    await waitFor('baseline', async () => (await snapshots()).size === ids.length);

    const before = await withSweepsPaused(app, async () => {
      const baseline = await snapshots();
      for (const id of ids) {
        const snapshot = baseline.get(id);
        // The budget had a whole sweep spare: status=active, then status=all once for the history.
        expect({ id, requests: sandbox.stats.count({ operation: 'positions', issuerId: id }) }).toEqual({
          id,
          requests: 2,
        });
        expect(snapshot?.watch).toEqual({ since: snapshot?.polledAt, changes: 0 });
        // Summed up by the estimator's own rule, from what the sandbox holds for the issuer.
        const dates = (sandbox.scenario.all(id) ?? []).map((row) => row.date);
        expect({ id, history: snapshot?.history }).toEqual({
          id,
          history: {
            ...historyEvidence(dates, Date.parse(snapshot?.polledAt ?? '')),
            at: expect.any(String),
          },
        });
      }
      return baseline;
    });

    const requestsBefore = new Map(
      ids.map((id) => [id, sandbox.stats.count({ operation: 'positions', issuerId: id })]),
    );
    expect(sandbox.scenario.step().length).toBeGreaterThan(0);
    const latest = sandbox.scenario.lastUpdated();
    await waitFor('every issuer polled after the change', async () =>
      [...(await snapshots()).values()].every((s) => s.lastUpdated === latest),
    );
    await withSweepsPaused(app, async () => {
      const events = await app.ctx.eventLog.recent({ limit: 1_000 });
      const moved = new Set(events.map((e) => e.issuer.id));
      const closed = new Set(events.filter((e) => e.kind === 'closed').map((e) => e.issuer.id));
      expect(moved.size).toBeGreaterThan(0);
      expect(moved.size).toBeLessThan(ids.length);
      const after = await snapshots();
      const nowMs = Date.now();
      for (const id of ids) {
        const [was, is] = [before.get(id), after.get(id)];
        if (!was || !is) throw new Error(`no snapshot of ${id}`);
        // One change per poll that found events, however many; none for a poll that found none.
        expect({ id, watch: is.watch }).toEqual({
          id,
          watch: { since: was.polledAt, changes: moved.has(id) ? 1 : 0 },
        });
        // The history is never fetched again for it; a close still asks status=all for its final value.
        expect({ id, history: is.history }).toEqual({ id, history: was.history });
        const requests = sandbox.stats.count({ operation: 'positions', issuerId: id });
        expect({ id, requests }).toEqual({
          id,
          requests: (requestsBefore.get(id) ?? 0) + 1 + (closed.has(id) ? 1 : 0),
        });
        if (!moved.has(id)) continue;
        // The sweep's own rate reads the count: the same snapshot without it rates the issuer lower.
        const uncounted: Snapshot = { ...is, watch: was.watch };
        expect(scheduleState(id, is, nowMs).rate).toBeGreaterThan(scheduleState(id, uncounted, nowMs).rate);
        expect(scheduleState(id, is, nowMs).rate).toBeGreaterThan(scheduleState(id, was, nowMs).rate);
      }
    });
  });
});
