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

/** `issuers` watched, caps lifted, gate 1 s; the `alerts` e-mail channel with the schema's pool defaults. */
export async function openSubscriberBench(issuers: number): Promise<SubscriberBench> {
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
  /** E-mails received of the kind counted, and over how long (first → last, or the window's end). */
  mails: number;
  sendingS: number;
  perSecond: number;
}

/**
 * Changes every issuer at once and times the commits (all snapshots at the new version: each commit is
 * one script with its outbox items), up to `commitBoundMs`; then counts e-mails of one kind from the
 * first for `windowMs` or until `expected` arrived. A bound that runs out is a figure, not a crash.
 */
export async function burst(
  bench: SubscriberBench,
  kind: 'subscriber' | 'other',
  expected: number,
  bounds: { windowMs: number; commitBoundMs: number },
): Promise<BurstRun> {
  const { stack, ids, smtp } = bench;
  const received = kind === 'subscriber' ? smtp.subscriberAt : smtp.otherAt;
  const mark = received.length;
  const startedAt = Date.now();
  changeIssuers(stack.sandbox.scenario, ids);
  let committed = 0;
  const current = async () => {
    committed = await snapshotsAtCurrent(stack.redis.redis, stack.prefix, stack.sandbox.scenario, ids);
    return committed === ids.length;
  };
  await waitFor('every commit of the burst', current, bounds.commitBoundMs, 100).catch(() => undefined);
  const committedS = (Date.now() - startedAt) / 1000;
  await waitFor('the first e-mail', () => received.length > mark, 120_000, 20).catch(() => undefined);
  const first = received[mark] ?? Date.now();
  await waitFor(
    'the e-mails of the window',
    () => received.length - mark >= expected || Date.now() - first >= bounds.windowMs,
    bounds.windowMs + 60_000,
    50,
  );
  const window = received.slice(mark);
  const last = window.at(-1) ?? first;
  const sendingS =
    Math.max(0.001, (window.length >= expected ? last : first + bounds.windowMs) - first) / 1000;
  return { committed, committedS, mails: window.length, sendingS, perSecond: window.length / sendingS };
}
