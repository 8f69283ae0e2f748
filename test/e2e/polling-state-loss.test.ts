import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { holderKey } from '../../src/positions/index.js';
import { deleteByPrefix } from '../helpers/redis.js';
import { type Stack, slackText, startStack, usePerTest, waitFor } from './harness.js';

/**
 * Redis losing shortwatch's state under a running daemon (a flush, a restart without persistence, an
 * eviction) re-baselines the issuers concerned silently, so the changes in the gap are never told: the
 * operator must hear of it, once, as a critical notice.
 */
describe('polling: Redis state lost under a live deployment', () => {
  const current = usePerTest();

  async function start(seed: number): Promise<{ running: App; ids: string[]; stack: Stack }> {
    const s = await startStack({ issuers: 3, seed, channels: ['slack', 'ops'] });
    current.stack = s;
    const running = await s.openApp();
    current.app = running;
    const ids = s.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await running.startDaemon({ workerOnly: false });
    await waitFor('baseline', async () => (await running.ctx.snapshots.getMany(ids)).size === ids.length);
    return { running, ids, stack: s };
  }

  const opsTexts = (s: Stack) =>
    s.slack
      .delivered()
      .filter((p) => p.path.endsWith('/ops'))
      .map((p) => slackText(p.payload));

  it('every key gone (FLUSHALL): one critical notice reaches ops, schedules come back, polling goes on', async () => {
    const { running, ids, stack: s } = await start(71);
    const [a] = ids;
    if (!a) throw new Error('scenario too small');
    // Everything of the deployment, BullMQ's schedulers and queues included, as a flush would.
    await deleteByPrefix(s.redis.redis, s.prefix);
    await waitFor(
      'the state-lost notice on the ops channel',
      () => opsTexts(s).some((t) => t.includes("Redis lost shortwatch's state")),
      30_000,
    );
    expect(opsTexts(s).filter((t) => t.includes("Redis lost shortwatch's state"))).toHaveLength(1);
    expect(opsTexts(s).join('\n')).toContain('3 watched issuers are re-baselined');
    // The schedulers were put back: sweeps run, every issuer is re-baselined, then changes are told again.
    await waitFor('re-baselined', async () => (await running.ctx.snapshots.getMany(ids)).size === ids.length);
    s.sandbox.scenario.disclose(a, 'After The Flush LLP', 0.7);
    await waitFor('a change after the loss is told', async () =>
      (await running.ctx.eventLog.recent({ limit: 10 })).some(
        (e) => e.holderKey === holderKey('After The Flush LLP'),
      ),
    );
  }, 60_000);

  it('snapshots evicted while the rest stays: one critical notice names them, resolved once re-baselined', async () => {
    const { running, ids, stack: s } = await start(72);
    const [a, b] = ids;
    if (!a || !b) throw new Error('scenario too small');
    await s.redis.redis.del(s.keys.snapshot(a), s.keys.snapshot(b));
    await waitFor('the vanished notice', () =>
      opsTexts(s).some((t) => t.includes('Snapshots vanished from Redis')),
    );
    const text = opsTexts(s).find((t) => t.includes('Snapshots vanished from Redis')) ?? '';
    expect(text).toContain(a);
    expect(text).toContain(b);
    await waitFor('resolved after the re-baseline', () =>
      opsTexts(s).some((t) => /Resolved: Snapshots vanished/.test(t)),
    );
    expect((await running.ctx.notices.list()).map((n) => n.key)).not.toContain('snapshots-vanished');
  }, 30_000);
});
