import { keyRoot } from '../src/state/keys.js';
import { waitFor } from '../test/e2e/harness.js';
import { snapshotsAtCurrent, startDaemons, stopDaemons } from './lib/daemons.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed } from './lib/stats.js';
import {
  addSubscribers,
  type BurstRun,
  burst,
  bytesMatching,
  openSubscriberBench,
} from './lib/subscriber-burst.js';

/** The scale: a 110-issuer burst, 2,000 subscribers each following 50 issuers. */
const FULL = { issuers: 110, subscribers: 2_000, follows: 50, windowMs: 30_000, commitBoundMs: 300_000 };
const QUICK = { issuers: 30, subscribers: 100, follows: 10, windowMs: 10_000, commitBoundMs: 120_000 };

interface FanoutFigures {
  scale: typeof FULL;
  single: BurstRun & { outboxBytes: number };
  fanout: BurstRun & { items: number; recordBytesPerSubscriber: number; outboxBytesPerSubscriber: number };
}

async function measure(scale: typeof FULL, progress: (line: string) => void): Promise<FanoutFigures> {
  const bench = await openSubscriberBench(scale.issuers);
  const { stack, ids } = bench;
  const redis = stack.redis.redis;
  const daemons = await startDaemons(redis, stack.prefix, stack.configPath, 1);
  try {
    const baseline = () => snapshotsAtCurrent(redis, stack.prefix, stack.sandbox.scenario, ids);
    await waitFor('baseline snapshots', async () => (await baseline()) === ids.length, 120_000, 200);
    // The single-channel figure: the burst to the one configured e-mail channel, every e-mail awaited.
    const single = await burst(bench, 'other', ids.length, { windowMs: 120_000, commitBoundMs: 120_000 });
    const outboxBytes = await bytesMatching(redis, stack.prefix, 'outbox:alerts:*');
    progress(`subscriber-fanout: single channel done (${single.mails} e-mails)`);

    await addSubscribers(stack, ids, scale.subscribers, scale.follows);
    const recordBytes = await bytesMatching(redis, stack.prefix, 'subscribers*');
    progress(`subscriber-fanout: ${scale.subscribers} subscribers added`);
    const expected = scale.subscribers * scale.follows;
    const fanout = await burst(bench, 'subscriber', expected, scale);
    const items = await committedItems(redis, stack.prefix);
    const subscriberOutboxBytes = await bytesMatching(redis, stack.prefix, 'outbox:~*');
    progress(`subscriber-fanout: fan-out done (${fanout.mails} e-mails in the window)`);
    return {
      scale,
      single: { ...single, outboxBytes },
      fanout: {
        ...fanout,
        items,
        recordBytesPerSubscriber: recordBytes / scale.subscribers,
        outboxBytesPerSubscriber: subscriberOutboxBytes / scale.subscribers,
      },
    };
  } finally {
    await stopDaemons(daemons);
    await bench.smtp.close();
    await stack.cleanup();
  }
}

/** Event ids accepted by subscribers' outboxes (their dedupe memories): what the commits fanned out. */
async function committedItems(redis: import('ioredis').Redis, prefix: string): Promise<number> {
  let items = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(
      cursor,
      'MATCH',
      `${keyRoot(prefix)}:outbox:~*:seen`,
      'COUNT',
      1000,
    );
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.zcard(key);
    for (const [, n] of (await pipeline.exec()) ?? []) items += Number(n ?? 0);
  } while (cursor !== '0');
  return items;
}

function report(f: FanoutFigures): BenchReport {
  const { scale, single, fanout } = f;
  return {
    title: `fan-out to subscribers: a ${scale.issuers}-issuer burst to ${scale.subscribers} subscribers, beside one channel`,
    scale: [
      `${scale.issuers} watched issuers all change in one refresh; one \`shortwatch start\`; gate every 1 s; caps lifted; poll.concurrency 4.`,
      `Single channel: the one e-mail channel, every e-mail awaited. Fan-out: ${scale.subscribers} subscribers added to the running daemon, each following ${scale.follows} issuers (a window sliding over the list), all on the channel's pooled SMTP transport (schema defaults); e-mails counted for ${scale.windowMs / 1000} s from the first or until all arrived.`,
      'Local SMTP server that counts only (no parsing); one Redis, the sandbox and the SMTP server in the bench process.',
    ],
    tables: [
      {
        title: 'Burst → commits, and e-mails through the pooled transport (same run)',
        columns: [
          'case',
          'issuers committed',
          'outbox items',
          'refresh → all committed s',
          'e-mails',
          'over s',
          'e-mails/s',
        ],
        rows: [
          [
            'single channel',
            `${single.committed}/${scale.issuers}`,
            scale.issuers,
            fixed(single.committedS, 2),
            single.mails,
            fixed(single.sendingS, 1),
            fixed(single.perSecond, 1),
          ],
          [
            `${scale.subscribers} subscribers × ${scale.follows} issuers`,
            `${fanout.committed}/${scale.issuers}`,
            fanout.items,
            fixed(fanout.committedS, 2),
            fanout.mails,
            fixed(fanout.sendingS, 1),
            fixed(fanout.perSecond, 1),
          ],
        ],
      },
      {
        title: 'Redis memory (MEMORY USAGE, every element counted)',
        columns: ['what', 'bytes'],
        rows: [
          ['single channel: its outbox after the burst', single.outboxBytes],
          ['per subscriber: record, indexes, audit entry', Math.round(fanout.recordBytesPerSubscriber)],
          [
            'per subscriber: outbox after the burst (items, dedupe memory, state)',
            Math.round(fanout.outboxBytesPerSubscriber),
          ],
        ],
      },
    ],
    notes: [
      'outbox items: event ids accepted by the outboxes (the dedupe memories); each commit writes its snapshot and every item of its fan-out in one script.',
      `"refresh → all committed" stops at ${scale.commitBoundMs / 1000} s: fewer issuers committed than changed means the bound ran out (the figure is then the bound).`,
      '"refresh → all committed" includes detection (the gate every 1 s) and the polls; it ends when the last issuer\'s commit is written.',
      "e-mails/s: e-mails received by the SMTP server over the window, from the first; each subscriber is a channel of its own with the template's rate, all sharing one pooled transport.",
    ],
    data: f,
  };
}

/** A 110-issuer burst fanned out to 2,000 subscribers, beside the one-channel figure of the same run. */
export const subscriberFanout: Benchmark = {
  name: 'subscriber-fanout',
  summary:
    'a 110-issuer burst fanned out to 2,000 subscribers following 50 issuers each: commits, e-mails/s, Redis per subscriber, beside one channel',
  async run(options: BenchOptions): Promise<BenchReport> {
    return report(await measure(options.quick ? QUICK : FULL, options.progress));
  },
};
