import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSchema } from '../../src/config/schema/redis.js';
import { openRedis, type RedisClient, reconnectOnFailover } from '../../src/state/redis-connection.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';
import { slackEvents, startStack, updateConfig, usePerTest, waitFor } from './harness.js';

/*
 * A managed failover (ElastiCache, Azure) answers `-LOADING Redis is loading the dataset in memory` on
 * connections that were fine while a node loads its dataset. Here a private redis-server really answers it:
 * `DEBUG RELOAD` with a slowed load (`key-load-delay`, and events processed every 1 KB so that other clients
 * are answered meanwhile) keeps it LOADING for about two seconds. Every connection shortwatch opens, the
 * BullMQ workers' included, waits it out and resends; the daemon polls and delivers everything once.
 */

const LOADING_KEYS = 20_000;

describe.skipIf(!REDIS_SERVER)('a Redis answering LOADING', () => {
  let server: PrivateRedis;
  let dir: string;
  let admin: Redis;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-loading-'));
    server = await startPrivateRedis(['--dir', dir, '--enable-debug-command', 'yes']);
    admin = new Redis(server.url, { maxRetriesPerRequest: 0 });
    await admin.call('DEBUG', 'POPULATE', String(LOADING_KEYS), 'ballast', '100');
    await admin.config('SET', 'key-load-delay', '100');
    await admin.config('SET', 'loading-process-events-interval-bytes', '1024');
  });

  afterAll(async () => {
    admin?.disconnect();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts a reload and resolves once another client is answered LOADING; `done` settles when it ends. */
  const startLoading = async (): Promise<{ done: Promise<unknown> }> => {
    // The probe is connected first: a client that connects while Redis loads waits in ioredis's ready
    // check until the load ends, and would never see LOADING (seen under a loaded CI run).
    const probe = new Redis(server.url, { maxRetriesPerRequest: 0, reconnectOnError: () => false });
    await probe.ping();
    const reloading = new Redis(server.url, { maxRetriesPerRequest: 0 });
    const done = reloading.call('DEBUG', 'RELOAD').finally(() => reloading.disconnect());
    try {
      await waitFor('LOADING answers', () =>
        probe.get('probe').then(
          () => false,
          (error: Error) => error.message.startsWith('LOADING'),
        ),
      );
    } finally {
      probe.disconnect();
    }
    return { done };
  };

  const open = (purpose: 'commands' | 'jobs'): RedisClient =>
    openRedis(redisSchema.parse({ url: server.url, prefix: 'loading' }), { purpose });

  it.each([
    ['READONLY (a demoted master)', "READONLY You can't write against a read only replica.", 2],
    ['LOADING (a node loading its dataset)', 'LOADING Redis is loading the dataset in memory', 2],
    ['another error', 'WRONGTYPE Operation against a key holding the wrong kind of value', false],
    ['a message merely containing LOADING', 'ERR LOADING is not a command', false],
  ] as const)('reconnects on %s', (_, message, expected) => {
    expect(reconnectOnFailover(new Error(message))).toBe(expected);
  });

  it('answers a command connection late instead of failing it, where a bare client gets LOADING', async () => {
    const commands = open('commands');
    const bare = new Redis(server.url, { maxRetriesPerRequest: 0 });
    try {
      await commands.connect();
      const { done } = await startLoading();
      // The control: the server really refuses commands now.
      await expect(bare.set('loading:bare', '1')).rejects.toThrow(/^LOADING/);
      await expect(commands.set('loading:late', '1')).resolves.toBe('OK');
      await done;
      expect(await admin.get('loading:late')).toBe('1');
    } finally {
      commands.disconnect();
      bare.disconnect();
    }
  }, 30_000);

  it('keeps BullMQ workers on their own connections taking every job once across the load', async () => {
    const commands = open('commands');
    const jobs = open('jobs');
    const queue = new Queue('loading', { connection: commands, prefix: '{loading}:q' });
    const processed: string[] = [];
    const errors: string[] = [];
    const worker = new Worker(
      'loading',
      async (job) => {
        processed.push(String(job.id));
      },
      { connection: jobs, prefix: '{loading}:q', concurrency: 2 },
    );
    worker.on('error', (error) => errors.push(error.message));
    try {
      await queue.add('before', {}, { jobId: 'before' });
      await waitFor('the first job', () => processed.includes('before'));
      const { done } = await startLoading();
      const during = Array.from({ length: 10 }, (_, i) => `during-${i}`);
      await Promise.all(during.map((id) => queue.add('during', {}, { jobId: id })));
      await done;
      await waitFor('every job', () => processed.length >= 1 + during.length, 20_000);
      expect([...processed].sort()).toEqual(['before', ...during].sort());
      expect(errors.filter((message) => message.startsWith('LOADING'))).toEqual([]);
    } finally {
      await worker.close(true);
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      commands.disconnect();
      jobs.disconnect();
    }
  }, 60_000);

  describe('the daemon', () => {
    const current = usePerTest();

    it('polls and delivers every change once when Redis loads between two steps', async () => {
      const stack = await startStack({ issuers: 4, seed: 13, channels: ['slack'] });
      current.stack = stack;
      updateConfig(stack, (config) => ({ ...config, redis: { url: server.url, prefix: stack.prefix } }));
      const app = await stack.openApp();
      current.app = app;
      await app.startDaemon({ workerOnly: false });
      const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
      await waitFor(
        'baseline snapshots',
        async () => (await app.ctx.snapshots.getMany(ids)).size === ids.length,
      );
      const expected: string[] = [];
      for (let round = 0; round < 2; round++) {
        const { done } = await startLoading();
        expected.push(...stack.sandbox.scenario.step().map((c) => `${c.issuerId}|${c.holderKey}|${c.kind}`));
        await done;
        await waitFor(
          `round ${round + 1} delivered`,
          () => stack.slack.delivered().flatMap((p) => slackEvents(p.payload)).length >= expected.length,
          30_000,
        );
      }
      // Nothing lost, nothing twice.
      const told = stack.slack.delivered().flatMap((p) => slackEvents(p.payload));
      expect(told.sort()).toEqual([...expected].sort());
      expect(await app.ctx.outbox.parked('desk')).toEqual([]);
    }, 120_000);
  });
});
