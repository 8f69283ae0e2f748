import type { Redis } from 'ioredis';
import { AccessState } from '../../src/budget/index.js';
import { QueueSet } from '../../src/jobs/queue-set.js';
import { keyRoot } from '../../src/state/keys.js';
import { Outbox } from '../../src/state/outbox.js';
import { SnapshotStore } from '../../src/state/snapshot-store.js';
import { TEST_SIGNING_SECRET } from '../channels/webhook/fixtures.js';
import { type Stack, startStack } from '../e2e/harness.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { type DroppingProxy, startDroppingProxy } from '../helpers/tcp-proxy.js';
import { Fleet } from './fleet.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** Recipients that tell the immediate emails from the digests in the one SMTP capture. */
export const ALERTS_TO = 'trader@example.test';
export const DIGEST_TO = 'digest@example.test';

/** Shortened rate windows, the same in the sandbox and in shortwatch, so that a 429 ends within seconds. */
export const WINDOWS = { minuteMs: 3_000, dayMs: 12_000 } as const;

/** Upstream request timeout of the daemon: an injected delay past it is a timeout. */
export const UPSTREAM_TIMEOUT_MS = 1_500;

/** The poll job lock: short, so a kill in the middle of polls costs seconds rather than a minute (the poll lease is a third of it). */
export const POLL_LOCK_MS = 5_000;

/** Slack stand-in delays stay under this, so a slow Slack is slow and never a timeout. */
export const SLACK_TIMEOUT_MS = 6_000;

/**
 * Slow enough that a step's changes (about ten issuers at once) wait in a backlog, so that Slack and the
 * webhook coalesce several issuers into one message; e-mail stays one issuer per message whatever its rate.
 */
export const SLACK_RATE = 2;
export const HOOK_RATE = 4;

/** The channels of a chaos run: Slack, email and webhook immediately, and an email digest. */
export const CHANNELS = ['desk', 'alerts', 'hook', 'morning'] as const;

/** The channels that send as soon as a poll finds events (not the digest). */
export const IMMEDIATE_CHANNELS = ['desk', 'alerts', 'hook'] as const;

/** How often the digest channel closes a period. */
export const DIGEST_SCHEDULE = '*/4 * * * * *';

/** Everything one chaos run drives and observes. */
export interface ChaosWorld {
  stack: Stack;
  receiver: WebhookReceiver;
  smtpProxy: DroppingProxy;
  /** Every process of the fleet reaches Redis through this, so a fault can make Redis unreachable. */
  redisProxy: DroppingProxy;
  fleet: Fleet;
  /** Our own connections, never named like the daemon's, so CLIENT KILL never hits them. */
  redis: Redis;
  admin: Redis;
  /** `redis.prefix` as configured: shortwatch names its Redis connections `<prefix>:<host>-<pid>:…`. */
  prefix: string;
  /** The hash-tagged root every key of the deployment lives under (`{prefix}`). */
  root: string;
  snapshots: SnapshotStore;
  access: AccessState;
  /** The per-channel outboxes: what waits, what is in flight, what was parked. */
  outbox: Outbox;
  queues: QueueSet;
  issuerIds: string[];
  close(): Promise<void>;
}

/** The shortwatch config of a chaos run: four channels with no filters, fast sweeps, short windows. */
function chaosConfig(
  stack: Stack,
  receiver: WebhookReceiver,
  proxies: { smtp: DroppingProxy; redis: DroppingProxy },
  logLevel: 'info' | 'warn',
): Record<string, unknown> {
  const proxy = proxies.smtp;
  const retrying = { backoff: '200ms', attempts: 12 };
  const smtp = { host: '127.0.0.1', port: proxy.port, secure: false, from: 'shortwatch@example.test' };
  return {
    ...stack.configObject,
    redis: { url: `redis://127.0.0.1:${proxies.redis.port}`, prefix: stack.prefix },
    upstream: {
      baseUrl: stack.sandbox.url,
      apiKey: 'sandbox-key',
      timeout: `${UPSTREAM_TIMEOUT_MS}ms`,
      retries: 1,
      retryDelay: '50ms',
    },
    // A killed process's polls run again within about two of these (BullMQ's stalled-job check).
    poll: { gateInterval: '1s', concurrency: 4, lockDuration: `${POLL_LOCK_MS}ms` },
    budget: {
      // Far more than 50 issuers need: while the list has no version, blind polls are floored at one per
      // issuer a second and none are planned while a round still waits (a cap like this once planned
      // 16,666 polls a tick).
      perMinute: 50_000,
      perDay: 5_000_000,
      reserve: 10,
      minuteWindow: `${WINDOWS.minuteMs}ms`,
      dayWindow: `${WINDOWS.dayMs}ms`,
      // Shrunk with the windows: after a day-window 429 without Retry-After, one probe every 2 s.
      probeInterval: '2s',
    },
    channels: [
      {
        name: 'desk',
        kind: 'slack',
        webhookUrl: stack.slack.url,
        timeout: `${SLACK_TIMEOUT_MS}ms`,
        ratePerSecond: SLACK_RATE,
        ...retrying,
      },
      { name: 'alerts', kind: 'email', ...smtp, to: [ALERTS_TO], ratePerSecond: 50, ...retrying },
      {
        name: 'hook',
        kind: 'webhook',
        url: receiver.url,
        signingSecret: TEST_SIGNING_SECRET,
        timeout: '5s',
        ratePerSecond: HOOK_RATE,
        ...retrying,
      },
      {
        name: 'morning',
        kind: 'email',
        mode: 'digest',
        schedule: DIGEST_SCHEDULE,
        timezone: 'Europe/London',
        ...smtp,
        to: [DIGEST_TO],
        ...retrying,
      },
      { name: 'ops', kind: 'console' },
    ],
    // Operator notices go to a console channel of their own: without one, critical notices fall back to
    // the people channels (issue 22), which the oracle judges event by event.
    ops: { channel: 'ops' },
    // A run compresses business days into seconds: any flap hold would outlast it. Off, each crossing
    // (the missing row's close and reopening, the sandbox's flapper) is its own message, counted alone.
    alerts: { flapWindow: '0s' },
    // A sender killed inside a send holds its channel this long (60 s by default); the run's Redis outages
    // (1-5 s, and the long run's 32 s pause) stay inside it.
    delivery: { claimGrace: '40s' },
    log: { level: logLevel, format: 'json' },
  };
}

/** Builds the world: sandbox, Slack stand-in, SMTP capture behind a dropping proxy, webhook receiver, fleet. */
export async function buildWorld(options: {
  seed: number;
  issuers: number;
  workers: number;
  /** Where each process's log goes (at info level); none by default. */
  logDir?: string;
}): Promise<ChaosWorld> {
  const stack = await startStack({
    seed: options.seed,
    issuers: options.issuers,
    sandbox: { limits: { perMinute: 1_000_000, perDay: 100_000_000, ...WINDOWS } },
  });
  const receiver = await startWebhookReceiver();
  const smtpProxy = await startDroppingProxy(stack.smtp.port);
  const target = new URL(TEST_REDIS_URL);
  const redisProxy = await startDroppingProxy(Number(target.port || 6379), target.hostname);
  const proxies = { smtp: smtpProxy, redis: redisProxy };
  stack.writeConfig(chaosConfig(stack, receiver, proxies, options.logDir ? 'info' : 'warn'));
  const redis = stack.redis.connect();
  const admin = stack.redis.connect();
  const root = keyRoot(stack.prefix);
  const fleet = new Fleet({
    configPath: stack.configPath,
    redis,
    root,
    workers: options.workers,
    logDir: options.logDir,
  });
  const queues = new QueueSet(stack.redis.connect(), root);
  return {
    stack,
    receiver,
    smtpProxy,
    redisProxy,
    fleet,
    redis,
    admin,
    prefix: stack.prefix,
    root,
    snapshots: new SnapshotStore(redis, root),
    access: new AccessState(redis, root),
    outbox: new Outbox(redis, root),
    queues,
    issuerIds: stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id),
    async close() {
      await fleet.stopAll();
      await queues.close().catch(() => undefined);
      await Promise.all([receiver.close(), smtpProxy.close(), redisProxy.close()]);
      await stack.cleanup();
    },
  };
}
