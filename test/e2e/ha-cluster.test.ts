import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { ledgerRoot } from '../../src/state/keys.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { hookEvents, killAll, refresh, spawnRegistered, tally, waitForEvents } from './ha-support.js';
import {
  type DaemonProcess,
  runShortwatch,
  type Stack,
  startStack,
  updateConfig,
  waitFor,
} from './harness.js';
import { type PrivateCluster, REDIS_BINARIES, startRedisCluster } from './redis-topology.js';

/*
 * A real Redis Cluster of three masters on loopback. Every key and queue of the deployment carries the
 * hash tag `{prefix}`, and the budget's ledger the tag of its upstream credential, so every Lua script
 * and BullMQ queue lives in one slot: a daemon (`start`) and two `worker` processes run two dataset
 * refreshes through it, and every event reaches the webhook once.
 */
describe.skipIf(!REDIS_BINARIES.server || !REDIS_BINARIES.cli)('Redis Cluster (three masters)', () => {
  let cluster: PrivateCluster | undefined;
  let stack: Stack | undefined;
  let hook: WebhookReceiver | undefined;
  let observer: App | undefined;
  const daemons: DaemonProcess[] = [];

  afterAll(async () => {
    await killAll(daemons);
    await observer?.stop(1_000);
    await hook?.close();
    await stack?.cleanup();
    await cluster?.stop();
  });

  it('a daemon and two workers deliver every event of two refreshes exactly once, with no CROSSSLOT', async () => {
    const redis = await startRedisCluster(3);
    cluster = redis;
    const running = await startStack({ issuers: 6, seed: 21, channels: [] });
    stack = running;
    const receiver = await startWebhookReceiver();
    hook = receiver;
    const { prefix } = running;
    updateConfig(running, (config) => ({
      ...config,
      redis: { cluster: { nodes: redis.nodes }, prefix },
      channels: [
        {
          name: 'hook',
          kind: 'webhook',
          url: receiver.url,
          signingSecret: TEST_SIGNING_SECRET,
          backoff: '100ms',
        },
      ],
      log: { level: 'info', format: 'json' },
    }));
    const app = await running.openApp();
    observer = app;
    daemons.push(await spawnRegistered(running, app, 'start'));
    daemons.push(await spawnRegistered(running, app, 'worker'));
    daemons.push(await spawnRegistered(running, app, 'worker'));

    const issuers = running.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
    await waitFor(
      'baseline snapshots of every issuer',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );
    const first = refresh(running, 'Cluster One');
    await waitForEvents(receiver, first);
    const second = refresh(running, 'Cluster Two');
    await waitForEvents(receiver, second);

    const delivered = hookEvents(receiver);
    expect([...tally(delivered.map((e) => e.key)).keys()].sort()).toEqual([...first, ...second].sort());
    expect([...tally(delivered.map((e) => e.id)).values()].filter((n) => n !== 1)).toEqual([]);
    // Not even a resend under the same delivery id: nothing was killed.
    expect(receiver.repeats()).toEqual([]);

    // Every key of the run is under the deployment's tag or the ledger's, so each kind sits on one master.
    const ledger = ledgerRoot(accessFingerprint(running.sandbox.url, 'sandbox-key'));
    const byNode = await redis.keysByNode();
    for (const tag of [`{${prefix}}:`, `${ledger}:`]) {
      const holding = byNode.filter((held) => held.some((key) => key.startsWith(tag)));
      expect(holding, tag).toHaveLength(1);
    }
    const keys = byNode.flat();
    expect(keys.filter((key) => !key.startsWith(`{${prefix}}:`) && !key.startsWith(`${ledger}:`))).toEqual(
      [],
    );

    // `check` names the topology and the role of each node, and warns about what would lose data.
    const check = await runShortwatch(['-c', running.configPath, 'check', '--offline']);
    const lines = check.stdout.split('\n');
    expect(check.code).toBe(0);
    expect(lines).toContain('ok    redis topology: cluster: 3 masters, 0 replicas');
    for (const node of redis.nodes) expect(lines).toContain(`ok    redis node ${node}: master`);
    expect(
      lines.filter((l) => /^WARN {2}redis\.cluster: the master \S+ has no replica/.test(l)),
    ).toHaveLength(3);
    expect(lines.filter((l) => /^WARN {2}redis appendonly is no and save is empty/.test(l))).toHaveLength(3);

    const log = daemons.map((d) => `${d.stdout()}\n${d.stderr()}`).join('\n');
    expect(log).toContain('redis cluster: 3 masters');
    expect(log).not.toMatch(/CROSSSLOT/);
    // No error or fatal line from any process.
    expect(log).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});
