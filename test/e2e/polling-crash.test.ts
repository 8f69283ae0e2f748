import { describe, expect, it } from 'vitest';
import { syncSchedulers } from '../../src/jobs/schedulers.js';
import { holderKey } from '../../src/positions/index.js';
import { slackText, spawnDaemon, startStack, updateConfig, usePerTest, waitFor } from './harness.js';
import { settled } from './settled.js';

const fromMrkdwn = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

describe('polling: SIGKILL in the middle of a poll', () => {
  const current = usePerTest();

  it('a worker killed while its polls wait on the upstream: the restarted one yields each event once', async () => {
    const stack = await startStack({
      issuers: 4,
      seed: 7,
      channels: ['slack'],
      // A dead worker's polls are claimed for 2 s (30 s by default) before another worker runs them again.
      config: { poll: { gateInterval: '500ms', concurrency: 8, lockDuration: '2s' } },
    });
    current.stack = stack;
    const { sandbox } = stack;
    // Long enough that the polls are still waiting on the upstream when the worker dies.
    updateConfig(stack, (config) => ({
      ...config,
      upstream: { baseUrl: sandbox.url, apiKey: 'sandbox-key', timeout: '15s', retries: 1 },
    }));
    const ids = sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    // The schedulers live here; every job runs in a `worker` child.
    const app = await stack.openApp();
    current.app = app;
    const observer = app;
    await syncSchedulers(app.queues, app.settings.config, app.settings.plan);
    const first = await spawnDaemon(stack, 'worker');
    current.daemons.push(first);
    await waitFor('baseline', async () => (await observer.ctx.snapshots.getMany(ids)).size === ids.length);

    // Every poll of the next refresh hangs at the upstream for a while: the worker dies with all of them in flight.
    sandbox.faults.inject({ operation: 'positions', delayMs: 6_000, times: ids.length });
    const changes = sandbox.scenario.step();
    expect(changes.length).toBeGreaterThan(0);
    await waitFor('every poll in flight', () => sandbox.faults.pending() === 0, 20_000, 20);
    first.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const killedAt = Date.now();
    expect(await observer.ctx.eventLog.recent({ limit: 100 })).toEqual([]);
    expect(stack.slack.posts).toEqual([]);

    current.daemons.push(await spawnDaemon(stack, 'worker'));
    const changed = [...new Set(changes.map((c) => c.issuerId))].sort();
    const expected = changes.map((c) => `${c.issuerId}|${holderKey(c.holder)}|${c.kind}`).sort();
    const logged = async () =>
      (await observer.ctx.eventLog.recent({ limit: 500 })).map(
        (e) => `${e.issuer.id}|${e.holderKey}|${e.kind}`,
      );
    await waitFor(
      'the events, polled again by the new worker',
      async () => (await logged()).length >= expected.length,
      30_000,
      250,
    );
    await waitFor(
      'one Slack message per changed issuer',
      () => stack.slack.delivered().length >= changed.length,
      30_000,
    );
    // Nothing more arrives: the dead worker's polls and sweep, claimed again once their lock lapsed, have run.
    await settled(stack, { timeoutMs: 45_000 });

    expect((await logged()).sort()).toEqual(expected);
    const posts = stack.slack.delivered().map((p) => fromMrkdwn(slackText(p.payload)));
    expect(posts).toHaveLength(changed.length);
    for (const issuerId of changed) {
      const mine = posts.filter((text) => text.includes(`${issuerId} · `));
      expect({ issuerId, messages: mine.length }).toEqual({ issuerId, messages: 1 });
      for (const change of changes.filter((c) => c.issuerId === issuerId))
        expect(mine[0]).toContain(change.holder);
    }
    // Each issuer was fetched again exactly once after the kill (twice where a holder closed: the final disclosure).
    const closed = new Set(changes.filter((c) => c.kind === 'closed').map((c) => c.issuerId));
    for (const id of ids) {
      const again = sandbox.stats.requests.filter(
        (r) => r.operation === 'positions' && r.issuerId === id && r.at > killedAt,
      );
      expect({ id, polls: again.length }).toEqual({ id, polls: closed.has(id) ? 2 : 1 });
    }
  }, 120_000);
});
