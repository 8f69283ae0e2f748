import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { waitFor } from '../test/e2e/harness.js';
import { startPrivateRedis } from '../test/helpers/redis-server.js';
import type { BurstFigures } from './lib/e2e-burst.js';
import type { LoneFigures } from './lib/e2e-lone.js';
import type { Benchmark, BenchOptions, BenchReport, BenchTable } from './lib/report.js';
import { fixed, formatSpread } from './lib/stats.js';

const run = promisify(execFile);
const CASE = join(new URL('.', import.meta.url).pathname, 'lib', 'durability-case.ts');

interface CaseFigures {
  replicas: number;
  lone: LoneFigures;
  burst: BurstFigures;
}

/** One case in a process of its own, on the private master (the harness reads REDIS_URL as it loads). */
async function runCase(url: string, replicas: number, quick: boolean): Promise<CaseFigures> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CASE], {
    env: {
      ...process.env,
      REDIS_URL: url,
      SHORTWATCH_BENCH_REPLICAS: String(replicas),
      SHORTWATCH_BENCH_QUICK: quick ? '1' : '0',
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  // The child's own line, from this repository's code: figures, not input from outside.
  const figures: CaseFigures = JSON.parse(last);
  return figures;
}

const label = (replicas: number) =>
  replicas === 0 ? 'off (replicas: 0), the baseline' : `WAIT for ${replicas} replica`;

function loneTable(cases: readonly CaseFigures[]): BenchTable {
  const first = cases[0]?.lone;
  return {
    title: `Lone event: one of ${first?.watched} issuers changes, ${first?.rounds} rounds; sandbox answer → Slack post, ms`,
    columns: ['redis.durability', 'p50 ms', 'p95 ms', 'max ms'],
    rows: cases.map((c) => [
      label(c.replicas),
      fixed(c.lone.p50Ms, 0),
      fixed(c.lone.p95Ms, 0),
      fixed(c.lone.maxMs, 0),
    ]),
  };
}

function burstTable(cases: readonly CaseFigures[]): BenchTable {
  const first = cases[0]?.burst;
  return {
    title: `Burst: ${first?.changed} of ${first?.watched} issuers change at once, Slack at ${first?.ratePerSecond}/s; sandbox answer → first post naming the issuer, s (median over rounds, range)`,
    columns: ['redis.durability', 'p50 s', 'p95 s', 'max s', 'messages'],
    rows: cases.map((c) => [
      label(c.replicas),
      formatSpread(c.burst.fromAnswer.p50, 2),
      formatSpread(c.burst.fromAnswer.p95, 2),
      formatSpread(c.burst.fromAnswer.max, 2),
      formatSpread(c.burst.messages, 0),
    ]),
  };
}

/** The cost of `WAIT` before each message (issue 30), on a real replica, beside the same run without it. */
export const durability: Benchmark = {
  name: 'durability',
  summary: 'lone-event and burst latency with redis.durability WAIT on a private replica, and without',
  async run({ quick, progress }: BenchOptions): Promise<BenchReport> {
    const master = await startPrivateRedis();
    const replica = await startPrivateRedis(['--replicaof', '127.0.0.1', String(master.port)]);
    const cases: CaseFigures[] = [];
    try {
      const probe = new Redis(replica.url);
      await waitFor('the replica in sync', async () =>
        /master_link_status:up/.test(await probe.info('replication')),
      );
      probe.disconnect();
      for (const replicas of [0, 1]) {
        cases.push(await runCase(master.url, replicas, quick));
        progress(`durability: replicas ${replicas} done`);
      }
    } finally {
      await replica.stop();
      await master.stop();
    }
    return {
      title: 'What telling only what a replica holds costs',
      scale: [
        'A private redis-server master and one replica (replicaof, loopback), no persistence; one `shortwatch start`, caps lifted, gate every 1 s.',
        'Each case in a process of its own on that master: `redis.durability.replicas: 0` (no WAIT, the baseline), then 1 (a raise of the mark and WAIT 1 before each message with events).',
      ],
      tables: [loneTable(cases), burstTable(cases)],
      notes: [
        'The raise of the high-water mark runs in both cases; only WAIT differs. A replica on loopback acknowledges within about a millisecond of being asked (the master sends REPLCONF GETACK as soon as a client waits).',
      ],
      data: cases,
    };
  },
};
