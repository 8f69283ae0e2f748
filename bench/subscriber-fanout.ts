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

/**
 * The scale: a 110-issuer burst, 2,000 subscribers each following 50 issuers, so 100,000 e-mails.
 * The relay takes the schema's highest rate (100 a second) over 10 connections: at the default 25 the
 * e-mails alone would take over an hour, a figure the rate gives without a run.
 */
const FULL = {
  issuers: 110,
  subscribers: 2_000,
  follows: 50,
  commitBoundMs: 300_000,
  sendBoundMs: 2_700_000,
  pool: { ratePerSecond: 100, maxConnections: 10 },
};
const QUICK = {
  issuers: 30,
  subscribers: 100,
  follows: 10,
  commitBoundMs: 120_000,
  sendBoundMs: 300_000,
  pool: { ratePerSecond: 100, maxConnections: 10 },
};

interface FanoutFigures {
  scale: typeof FULL;
  single: BurstRun & { outboxBytes: number };
  fanout: BurstRun & { items: number; recordBytesPerSubscriber: number; outboxBytesPerSubscriber: number };
}

async function measure(scale: typeof FULL, progress: (line: string) => void): Promise<FanoutFigures> {
  const bench = await openSubscriberBench(scale.issuers, scale.pool);
  const { stack, ids } = bench;
  const redis = stack.redis.redis;
  const daemons = await startDaemons(redis, stack.prefix, stack.configPath, 1);
  try {
    const baseline = () => snapshotsAtCurrent(redis, stack.prefix, stack.sandbox.scenario, ids);
    await waitFor('baseline snapshots', async () => (await baseline()) === ids.length, 120_000, 200);
    // The single-channel figure: the burst to the one configured e-mail channel, every e-mail awaited.
    const single = await burst(bench, 'other', ids.length, { commitBoundMs: 120_000, sendBoundMs: 300_000 });
    const outboxBytes = await bytesMatching(redis, stack.prefix, 'outbox:alerts:*');
    progress(`subscriber-fanout: single channel done (${single.mails} e-mails)`);

    await addSubscribers(stack, ids, scale.subscribers, scale.follows);
    const recordBytes = await bytesMatching(redis, stack.prefix, 'subscribers*');
    progress(`subscriber-fanout: ${scale.subscribers} subscribers added`);
    const expected = scale.subscribers * scale.follows;
    const fanout = await burst(bench, 'subscriber', expected, scale);
    const items = await committedItems(redis, stack.prefix);
    const subscriberOutboxBytes = await bytesMatching(redis, stack.prefix, 'outbox:~*');
    progress(`subscriber-fanout: fan-out done (${fanout.mails} of ${expected} e-mails)`);
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
  const perItem = (commands: number, items: number) => fixed(commands / Math.max(1, items), 1);
  return {
    title: `fan-out to subscribers: a ${scale.issuers}-issuer burst to ${scale.subscribers} subscribers, beside one channel`,
    scale: [
      `${scale.issuers} watched issuers all change in one refresh; one \`shortwatch start\`; gate every 1 s; caps lifted; poll.concurrency 4.`,
      `Single channel: the one e-mail channel. Fan-out: ${scale.subscribers} subscribers added to the running daemon, each following ${scale.follows} issuers (a window sliding over the list), all on that channel's pooled SMTP transport: ratePerSecond ${scale.pool.ratePerSecond}, maxConnections ${scale.pool.maxConnections}; \`subscribers.deliverers\` at its default. Every e-mail awaited (up to ${scale.sendBoundMs / 1000} s from the refresh).`,
      'Local SMTP server that counts only (no parsing); one Redis, the sandbox and the SMTP server in the bench process.',
    ],
    tables: [
      {
        title: 'Burst → commits → every e-mail through the pooled transport (same run)',
        columns: [
          'case',
          'issuers committed',
          'outbox items',
          'refresh → all committed s',
          'e-mails',
          'refresh → all sent s',
          'e-mails/s',
          'Redis cmds/item to commit',
          'to sent',
        ],
        rows: [
          [
            'single channel',
            `${single.committed}/${scale.issuers}`,
            scale.issuers,
            fixed(single.committedS, 2),
            `${single.mails}/${scale.issuers}`,
            fixed(single.allSentS, 1),
            fixed(single.perSecond, 1),
            perItem(single.commandsToCommitted, scale.issuers),
            perItem(single.commandsToSent, scale.issuers),
          ],
          [
            `${scale.subscribers} subscribers × ${scale.follows} issuers`,
            `${fanout.committed}/${scale.issuers}`,
            fanout.items,
            fixed(fanout.committedS, 2),
            `${fanout.mails}/${scale.subscribers * scale.follows}`,
            fixed(fanout.allSentS, 1),
            fixed(fanout.perSecond, 1),
            perItem(fanout.commandsToCommitted, fanout.items),
            perItem(fanout.commandsToSent, fanout.items),
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
      `"refresh → all committed" stops at ${scale.commitBoundMs / 1000} s: fewer issuers committed than changed means the bound ran out (the figure is then the bound). It includes detection (the gate every 1 s) and the polls.`,
      '"refresh → all sent": until the last expected e-mail arrived; e-mails/s: over first → last e-mail. Each subscriber is a channel of its own with the template\'s rate, all sharing one pooled transport.',
      'Redis cmds/item: commands the whole server processed (other clients on it included) from the refresh, per outbox item.',
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
