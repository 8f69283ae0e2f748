import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { redisSchema } from '../../src/config/schema/redis.js';
import { openRedis, type RedisClient } from '../../src/state/redis-connection.js';
import { type PrivateRedis, REDIS_SERVER, startPrivateRedis } from '../helpers/redis-server.js';
import { SlackWebApiStandIn, type StoredMessage } from '../helpers/slack-web-api-stand-in.js';
import {
  addChannel,
  type DaemonProcess,
  type Stack,
  slackIssuers,
  spawnShortwatch,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';
import { channelSettled, repeated } from './settled.js';

const TOKEN = 'xoxb-7777-8888-E2eRestartToken';
const CONVERSATION = 'C0E2ERESTART';
const ISSUERS = 40;
/** The post of the burst at whose acceptance Redis dies: mid-delivery (the rate sends four an attempt). */
const CUT_AT = 10;

function issuerOf(message: StoredMessage | undefined): string {
  return message === undefined ? '?' : (slackIssuers(message)[0] ?? '?');
}

/*
 * Issue 33: a Redis restart mid-burst repeats nothing on a slack-app channel. Redis is a private
 * redis-server with the append-only file fsynced before every reply (`appendfsync always`), so what it
 * acknowledged survives a crash; it is killed with SIGKILL (no SHUTDOWN, no SIGTERM: those write the
 * file out at exit and would hide a write that was never acknowledged) at the worst moment for the
 * channel: Slack has accepted a thread's parent, and the daemon has not yet written the parent's ts to
 * Redis nor recorded the part as sent. Redis stays down until a command connection like the daemon's
 * has given up a command sent then, and comes back on the same port with its files. The one daemon
 * (never restarted) then finishes the burst: every issuer's parent once, and later changes of the issuer
 * cut at the kill, of one posted before it, and a flap still land in their threads (the one past the
 * channel's `broadcast.minDelta` broadcast to the channel too).
 */
describe.skipIf(!REDIS_SERVER)('slack-app: a Redis restart mid-burst', () => {
  let stack: Stack | undefined;
  let server: PrivateRedis | undefined;
  let dir: string | undefined;
  let admin: Redis | undefined;
  let probe: RedisClient | undefined;
  let observer: App | undefined;
  const slack = new SlackWebApiStandIn(TOKEN, [CONVERSATION]);
  const daemons: DaemonProcess[] = [];

  afterEach(async () => {
    slack.beforeAnswer = undefined;
    await stopDaemons(daemons.splice(0));
    await observer?.stop(2_000);
    probe?.disconnect();
    admin?.disconnect();
    await slack.stop();
    await stack?.cleanup();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('posts every parent once and keeps every thread when Redis dies as Slack accepts a parent', async () => {
    const apiUrl = await slack.start();
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-slack-app-restart-'));
    const redis = await startPrivateRedis(['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir]);
    server = redis;
    const stackOf = await startStack({
      issuers: ISSUERS,
      seed: 17,
      channels: ['ops'],
      config: { alerts: { flapWindow: '5s' } },
    });
    stack = stackOf;
    updateConfig(stackOf, (config) => ({ ...config, redis: { url: redis.url, prefix: stackOf.prefix } }));
    addChannel(stackOf, {
      name: 'desk-app',
      kind: 'slack-app',
      token: TOKEN,
      channel: CONVERSATION,
      apiUrl,
      ratePerSecond: 4,
      backoff: '200ms',
      attempts: 10,
      // A reply of 0.75 pp or more is broadcast to the channel too: of the later changes, the 0.8% opening.
      broadcast: { minDelta: 0.75 },
    });
    const redisAdmin = new Redis(redis.url, { maxRetriesPerRequest: null });
    redisAdmin.on('error', () => undefined);
    admin = redisAdmin;
    // A connection as the daemon's stores have (`commands`: a command fails after three reconnects).
    const like = openRedis(redisSchema.parse({ url: redis.url, prefix: 'probe' }), { purpose: 'commands' });
    like.on('error', () => undefined);
    await like.connect();
    probe = like;
    observer = await stackOf.openApp();
    const app = observer;
    const issuers = stackOf.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);

    const daemon = spawnShortwatch(['-c', stackOf.configPath, 'start']);
    daemons.push(daemon);
    await waitFor('the daemon to register', async () => {
      const fields = await redisAdmin.hkeys(stackOf.keys.workers);
      return fields.some((field) => field.includes(`-${daemon.child.pid}-`));
    });
    await waitFor(
      'baseline snapshots',
      async () => (await app.ctx.snapshots.getMany(issuers)).size === issuers.length,
      30_000,
    );
    expect(slack.posted).toEqual([]);

    // The kill, inside the stand-in: the CUT_AT-th parent is stored, Redis dies, then Slack answers.
    let cut: StoredMessage | undefined;
    let killed = false;
    slack.beforeAnswer = async (call, answer) => {
      if (call.method !== 'chat.postMessage' || cut !== undefined || slack.posted.length !== CUT_AT) return;
      cut = slack.posted.find((m) => m.ts === answer.body.ts);
      const pid = redis.pid();
      await redis.stop('SIGKILL');
      killed = pid !== undefined && redis.pid() === undefined;
    };
    for (const [index, issuerId] of issuers.entries())
      stackOf.sandbox.scenario.disclose(issuerId, `Restart Capital ${index + 1} LLP`, 0.6 + index / 100);
    await waitFor('Redis killed as Slack accepted a parent', () => killed, 30_000, 20);
    expect(slack.posted.length).toBe(CUT_AT);
    // Down until a command sent at the kill has failed on a connection like the daemon's, twice over (the
    // daemon's write of the parent's ts was sent a moment after the kill, and gives up by then too).
    for (const round of [1, 2]) await expect(like.get(`probe-${round}`), `round ${round}`).rejects.toThrow();
    expect(slack.posted.length).toBe(CUT_AT);
    await redis.start();

    await waitFor('40 parents', () => slack.parents().length >= ISSUERS, 60_000);
    await waitFor(
      'the burst drained',
      async () => (await app.ctx.outbox.depth('desk-app', Date.now())).inflight === 0,
      30_000,
    );

    // Later changes: of the issuer cut at the kill, of one posted before it, and a flap (a fall below
    // 0.5%, a reply, then back above within the flap window: that reply edited in place).
    const cutIssuer = issuerOf(cut);
    const earlier = issuerOf(slack.posted[2]);
    const flapping = issuerOf(slack.posted[CUT_AT + 3]);
    const holderOf = (issuer: string) => `Restart Capital ${issuers.indexOf(issuer) + 1} LLP`;
    stackOf.sandbox.scenario.disclose(cutIssuer, 'After Restart Partners LLP', 0.7);
    stackOf.sandbox.scenario.disclose(earlier, 'After Restart Partners LLP', 0.8);
    const replyCount = () => slack.posted.filter((m) => m.thread_ts !== undefined).length;
    await waitFor('two replies', () => replyCount() >= 2, 30_000);
    stackOf.sandbox.scenario.disclose(flapping, holderOf(flapping), 0.45);
    await waitFor('the fall below', () => replyCount() >= 3, 30_000);
    const fall = slack.posted.at(-1);
    stackOf.sandbox.scenario.disclose(flapping, holderOf(flapping), 0.55);
    await waitFor('the edit', () => (fall?.edits ?? 0) > 0, 30_000);
    await channelSettled(app, 'desk-app', ISSUERS + 4, () => slack.posted.length);

    const parents = slack.parents();
    expect(repeated(parents.map(issuerOf))).toEqual([]);
    expect(parents.map(issuerOf).sort()).toEqual([...issuers].sort());
    const parentTs = (issuer: string) => parents.find((m) => issuerOf(m) === issuer)?.ts;
    // The parent Slack accepted as Redis died is the one its thread kept.
    expect(parentTs(cutIssuer)).toBe(cut?.ts);
    const replies = slack.posted.filter((m) => m.thread_ts !== undefined);
    // Each in its issuer's thread, once (the two later changes may be polled in either order).
    const byIssuer = (a: unknown[], b: unknown[]) => String(a[1]).localeCompare(String(b[1]));
    expect(replies.map((m) => [m.thread_ts, issuerOf(m), m.edits, m.subtype]).sort(byIssuer)).toEqual(
      [
        [parentTs(cutIssuer), cutIssuer, 0, undefined],
        [parentTs(earlier), earlier, 0, 'thread_broadcast'],
        [parentTs(flapping), flapping, 1, undefined],
      ].sort(byIssuer),
    );
    expect(fall?.text.split('corrected with the later changes of')).toHaveLength(2);
    expect(slack.posted).toHaveLength(ISSUERS + 3);
    expect(slack.limited.size).toBe(0);
    // One daemon throughout: it rode the restart out rather than exiting.
    expect([daemon.child.exitCode, daemon.child.signalCode]).toEqual([null, null]);
    expect(await app.ctx.outbox.depth('desk-app', Date.now())).toEqual({
      waiting: 0,
      ready: 0,
      inflight: 0,
      parked: 0,
    });
  }, 120_000);
});
