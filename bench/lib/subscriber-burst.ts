import type { Redis } from 'ioredis';
import { keyRoot } from '../../src/state/keys.js';
import { SubscriberStore } from '../../src/state/subscriber-store.js';
import { freePort, type Stack, startStack, waitFor } from '../../test/e2e/harness.js';
import { type CountingSmtp, startCountingSmtp } from './counting-smtp.js';
import { snapshotsAtCurrent } from './daemons.js';
import { changeIssuers } from './e2e-round.js';
import { type BenchStack, LIFTED } from './e2e-stack.js';

const LINK_SECRET = 'bench-link-secret-0123456789-abcdefghijklmnop';
const SUBSCRIBER_DOMAIN = '@desk.bench';

/** A stack whose one e-mail channel (`alerts`) is also the subscribers' template, both to a counting SMTP server. */
export interface SubscriberBench extends BenchStack {
  smtp: CountingSmtp;
}

/** The `alerts` channel's pool: what its relay accepts (the schema's defaults when left out). */
export interface MailPool {
  ratePerSecond?: number;
  maxConnections?: number;
}

/** `issuers` watched, caps lifted, gate 1 s; the `alerts` e-mail channel with `pool` over the schema's defaults. */
export async function openSubscriberBench(issuers: number, pool: MailPool = {}): Promise<SubscriberBench> {
  const port = await freePort();
  const stack = await startStack({
    issuers,
    seed: 11,
    channels: ['email'],
    sandbox: { limits: LIFTED },
    config: {
      budget: { ...LIFTED, reserve: 10 },
      poll: { gateInterval: '1s', concurrency: 4 },
      http: { port, host: '127.0.0.1' },
      subscribers: { email: 'alerts', linkSecret: LINK_SECRET, publicUrl: `http://127.0.0.1:${port}/` },
    },
  });
  const smtp = await startCountingSmtp((address) => address.endsWith(SUBSCRIBER_DOMAIN));
  stack.writeConfig({
    ...stack.configObject,
    channels: [
      {
        name: 'alerts',
        kind: 'email',
        host: smtp.host,
        port: smtp.port,
        secure: false,
        from: 'shortwatch@example.test',
        to: ['desk@example.test'],
        ...pool,
      },
    ],
  });
  return { stack, ids: stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id), smtp };
}

/** Adds `count` subscribers, each following `follows` of the issuers (a window sliding over the list). */
export async function addSubscribers(stack: Stack, ids: readonly string[], count: number, follows: number) {
  const store = new SubscriberStore(stack.redis.redis, keyRoot(stack.prefix));
  const actor = { who: 'bench', via: 'import' } as const;
  for (let i = 0; i < count; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 100); j++) {
      const issuers = Array.from({ length: follows }, (_, k) => ids[(j + k) % ids.length] ?? '');
      batch.push(
        store.add({ name: `Trader ${j}`, email: `t${j}${SUBSCRIBER_DOMAIN}`, watch: { issuers } }, actor),
      );
    }
    await Promise.all(batch);
  }
}

/** Bytes of the deployment's keys that match `glob` after its root (MEMORY USAGE, every element counted). */
export async function bytesMatching(redis: Redis, prefix: string, glob: string): Promise<number> {
  let bytes = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyRoot(prefix)}:${glob}`, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    for (const [, value] of (await pipeline.exec()) ?? []) bytes += typeof value === 'number' ? value : 0;
  } while (cursor !== '0');
  return bytes;
}

/** What one burst measured. */
export interface BurstRun {
  /** Issuers whose commit was written within the bound (all of them, unless the bound ran out). */
  committed: number;
  /** The refresh (every issuer changed) → the last commit written (or the bound), its outbox items with it. */
  committedS: number;
  /** E-mails received of the kind counted, and over how long (first → last, or the bound). */
  mails: number;
  sendingS: number;
  perSecond: number;
  /** The refresh → the last e-mail expected (or the bound): every outbox item sent. */
  allSentS: number;
  /** Redis commands the server processed from the refresh to the last commit, and to the last e-mail (every client's). */
  commandsToCommitted: number;
  commandsToSent: number;
}

/** Commands the Redis server has processed since it started (INFO stats). */
async function commandsProcessed(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
}

/**
 * Changes every issuer at once and times the commits (all snapshots at the new version: each commit is
 * one script with its outbox items), up to `commitBoundMs`; then waits for the `expected` e-mails of one
 * kind, up to `sendBoundMs` from the refresh. A bound that runs out is a figure, not a crash.
 */
export async function burst(
  bench: SubscriberBench,
  kind: 'subscriber' | 'other',
  expected: number,
  bounds: { commitBoundMs: number; sendBoundMs: number },
): Promise<BurstRun> {
  const { stack, ids, smtp } = bench;
  const redis = stack.redis.redis;
  const received = kind === 'subscriber' ? smtp.subscriberAt : smtp.otherAt;
  const mark = received.length;
  const commandsAtStart = await commandsProcessed(redis);
  const startedAt = Date.now();
  changeIssuers(stack.sandbox.scenario, ids);
  let committed = 0;
  const current = async () => {
    committed = await snapshotsAtCurrent(redis, stack.prefix, stack.sandbox.scenario, ids);
    return committed === ids.length;
  };
  await waitFor('every commit of the burst', current, bounds.commitBoundMs, 100).catch(() => undefined);
  const committedS = (Date.now() - startedAt) / 1000;
  const commandsToCommitted = (await commandsProcessed(redis)) - commandsAtStart;
  const left = Math.max(1_000, bounds.sendBoundMs - (Date.now() - startedAt));
  await waitFor('every e-mail', () => received.length - mark >= expected, left, 100).catch(() => undefined);
  const allSentS = (Date.now() - startedAt) / 1000;
  const commandsToSent = (await commandsProcessed(redis)) - commandsAtStart;
  const window = received.slice(mark);
  const first = window[0] ?? Date.now();
  const last = window.length >= expected ? (window.at(-1) ?? first) : Date.now();
  const sendingS = Math.max(0.001, last - first) / 1000;
  return {
    committed,
    committedS,
    mails: window.length,
    sendingS,
    perSecond: window.length / sendingS,
    allSentS,
    commandsToCommitted,
    commandsToSent,
  };
}
