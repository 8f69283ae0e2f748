import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { keyRoot, ledgerRoot } from '../../src/state/keys.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../chaos/webhook-receiver.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';
import { hookEvents, killAll, refresh, spawnRegistered, waitForEvents } from './ha-support.js';
import {
  type DaemonProcess,
  runShortwatch,
  type Stack,
  startStack,
  updateConfig,
  waitFor,
} from './harness.js';

/** Commands that name no key (connection, server and transaction commands). */
const KEYLESS = new Set([
  'auth',
  'client',
  'cluster',
  'command',
  'config',
  'dbsize',
  'echo',
  'exec',
  'hello',
  'info',
  'lastsave',
  'memory',
  'monitor',
  'multi',
  'ping',
  'quit',
  'readonly',
  'role',
  'script',
  'select',
  'time',
  'wait',
  'discard',
  'unwatch',
  'slowlog',
  'reset',
]);
/** Commands whose every argument is a key (or a pub/sub channel). */
const ALL_KEYS = new Set(['del', 'unlink', 'exists', 'mget', 'touch', 'subscribe', 'unsubscribe', 'watch']);

/** The keys (and pub/sub channels) one monitored command names. */
function keysOf(args: readonly string[]): string[] {
  const [name, ...rest] = args;
  const command = (name ?? '').toLowerCase();
  if (KEYLESS.has(command)) return [];
  if (command.startsWith('eval') || command.startsWith('fcall')) {
    return rest.slice(2, 2 + Number(rest[1]));
  }
  if (ALL_KEYS.has(command)) return rest;
  // Blocking pops: the keys, then the timeout.
  if (command === 'bzpopmin' || command === 'bzpopmax' || command === 'blpop' || command === 'brpop') {
    return rest.slice(0, -1);
  }
  return rest.slice(0, 1);
}

/** The hash tag of a key, `{…}` up to its first `}`, or the whole key when it has none. */
function tagOf(key: string): string {
  const end = key.indexOf('}');
  return key.startsWith('{') && end > 0 ? key.slice(0, end + 1) : key;
}

/*
 * Every key the project writes, and every key and channel any command of a full run names, carries the
 * deployment's hash tag `{prefix}`, or, for the budget's ledger, the tag of the upstream credential
 * (`{shortwatch-upstream:<fingerprint>}`, shared by every deployment with that key), and no script names
 * keys of both: a daemon and a worker with every channel kind, digests and the heartbeat, a dataset
 * refresh, and the CLI (check, status, events, deliveries, mute, mutes). On a private Redis watched with
 * MONITOR, so nothing else's keys are in the way; SCAN at the end shows what stayed.
 */
describe.skipIf(!REDIS_SERVER)('every key under the deployment hash tag or the ledger hash tag', () => {
  let redis: PrivateRedis | undefined;
  let stack: Stack | undefined;
  let hook: WebhookReceiver | undefined;
  let monitor: Redis | undefined;
  const daemons: DaemonProcess[] = [];

  afterAll(async () => {
    await killAll(daemons);
    monitor?.disconnect();
    await hook?.close();
    await stack?.cleanup();
    await redis?.stop();
  });

  it('a full run names no key outside {prefix} and the ledger of its key, and no script spans both', async () => {
    const server = await startPrivateRedis(['--maxmemory-policy', 'noeviction']);
    redis = server;
    const running = await startStack({
      issuers: 4,
      seed: 31,
      channels: ['slack', 'email', 'digest', 'console', 'ops'],
    });
    stack = running;
    const receiver = await startWebhookReceiver();
    hook = receiver;
    updateConfig(running, (config) => ({
      ...config,
      redis: { url: server.url, prefix: running.prefix, liveness: { interval: '500ms', timeout: '10s' } },
      ops: { channel: 'ops', heartbeat: '*/5 * * * * *' },
      channels: [
        ...(config.channels as unknown[]),
        {
          name: 'hook',
          kind: 'webhook',
          url: receiver.url,
          signingSecret: TEST_SIGNING_SECRET,
          backoff: '100ms',
        },
      ],
    }));
    const named: string[] = [];
    const scripts: string[][] = [];
    monitor = await new Redis(server.url).monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      named.push(...keysOf(args));
      if (/^(eval|fcall)/i.test(args[0] ?? '')) scripts.push(keysOf(args));
    });
    const app = await running.openApp();
    try {
      daemons.push(await spawnRegistered(running, app, 'start'));
      daemons.push(await spawnRegistered(running, app, 'worker'));
      const issuers = running.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
      await waitFor(
        'baseline snapshots',
        async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
        30_000,
      );
      const expected = refresh(running, 'Hash Tag');
      await waitForEvents(receiver, expected);
      await waitFor(
        'a digest sent',
        () => running.smtp.mails.some((m) => m.raw.toString('utf8').includes('digest@example.test')),
        30_000,
      );
      const cli = (...args: string[]) => runShortwatch(['-c', running.configPath, ...args]);
      for (const args of [
        ['check', '--offline'],
        ['status'],
        ['events'],
        ['deliveries'],
        ['mute', 'holder', 'Hash Tag Capital LLP', '--for', '1h'],
        ['mutes'],
      ]) {
        expect((await cli(...args)).code, args.join(' ')).toBe(0);
      }
      expect(hookEvents(receiver).length).toBeGreaterThan(0);
    } finally {
      await killAll(daemons);
      await app.stop(1_000);
    }

    const tag = keyRoot(running.prefix);
    const ledger = ledgerRoot(accessFingerprint(running.sandbox.url, 'sandbox-key'));
    const outside = (key: string) => !key.startsWith(`${tag}:`) && !key.startsWith(`${ledger}:`);
    expect(named.length).toBeGreaterThan(100);
    expect([...new Set(named.filter(outside))]).toEqual([]);
    // The budget's scripts ran (a take per request), each in the ledger's slot alone; every other script
    // in the deployment's.
    expect(scripts.some((keys) => keys.some((key) => tagOf(key) === ledger))).toBe(true);
    expect(scripts.filter((keys) => new Set(keys.map(tagOf)).size > 1)).toEqual([]);
    const reader = new Redis(server.url);
    const kept = await reader.keys('*').finally(() => reader.quit());
    expect(kept.some((key) => key.startsWith(`${tag}:`))).toBe(true);
    expect(kept.some((key) => key.startsWith(`${ledger}:`))).toBe(true);
    expect(kept.filter(outside)).toEqual([]);
  }, 120_000);
});
