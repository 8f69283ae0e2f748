import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { createScenario } from '../src/sandbox/index.js';
import { Random } from '../src/sandbox/prng.js';
import { startStack, waitFor } from '../test/e2e/harness.js';
import { churn } from './lib/churn.js';
import { snapshotsAtCurrent } from './lib/daemons.js';
import { type RedisFootprint, redisFootprint } from './lib/redis-footprint.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, slope } from './lib/stats.js';

const HOLDERS = 25;
const LIFTED = { perMinute: 1_000_000, perDay: 1_000_000_000 };
/** What 100 requests a minute allow in an hour: the compressed run's unit of time. */
const POLLS_PER_HOUR = 6_000;
const SAMPLE_MS = 1_000;
const MB = 1024 * 1024;

const sampleSchema = z.object({
  at: z.number(),
  rss: z.number(),
  heapUsed: z.number(),
  heapTotal: z.number(),
  external: z.number(),
  cpuMs: z.number(),
});
type MemorySample = z.infer<typeof sampleSchema> & { polls: number };

/** Runs bench/footprint-daemon.ts in a child node with --expose-gc; `onSample` sees each memory line. */
function spawnDaemon(
  configPath: string,
  onSample: (sample: z.infer<typeof sampleSchema>) => void,
): { child: ChildProcess; exited: Promise<void>; stderr: () => string } {
  const script = new URL('./footprint-daemon.ts', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, configPath, String(SAMPLE_MS)],
    {
      cwd: new URL('..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-4000);
  });
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = sampleSchema.safeParse(JSON.parse(line));
      if (parsed.success) onSample(parsed.data);
    });
  }
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, exited, stderr: () => err };
}

interface Checkpoint {
  sweep: number;
  polls: number;
  rssMb: number;
  heapMb: number;
  cpuS: number;
  redis: RedisFootprint;
}

function perIssuerRow(label: string, r: RedisFootprint, issuers: number): (string | number)[] {
  const kb = (bytes: number) => fixed(bytes / 1024 / issuers, 2);
  const b = r.bytes;
  return [
    label,
    kb(b.snapshots),
    kb(b.eventStreams),
    kb(b.eventSeen),
    kb(b.pollQueue),
    kb(b.deliveryQueues),
    kb(b.otherQueues + b.otherState),
    kb(r.total),
    r.keys,
  ];
}

/** Daemon memory and Redis memory per watched issuer over a compressed hour of polling. */
export const footprint: Benchmark = {
  name: 'footprint',
  summary: 'daemon RSS and heap, and Redis memory per watched issuer, over an hour-equivalent of polling',
  async run(options: BenchOptions): Promise<BenchReport> {
    const issuers = options.quick ? 200 : 1000;
    const sweeps = options.quick ? 1 : 6;
    const scenario = createScenario({ seed: 5, issuers, holdersPerIssuer: [HOLDERS, HOLDERS] });
    const stack = await startStack({
      channels: ['slack'],
      sandbox: { scenario, limits: LIFTED },
      config: { budget: { ...LIFTED, reserve: 10 }, poll: { gateInterval: '1s', concurrency: 16 } },
    });
    stack.writeConfig({
      ...stack.configObject,
      channels: [
        {
          name: 'desk',
          kind: 'slack',
          webhookUrl: stack.slack.url,
          ratePerSecond: 100,
          backoff: '200ms',
          attempts: 6,
        },
      ],
    });
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    const samples: MemorySample[] = [];
    const pollCount = () => stack.sandbox.stats.count({ operation: 'positions' });
    const polledSince = (mark: number) => {
      const seen = new Set<string>();
      for (const r of stack.sandbox.stats.requests.slice(mark)) {
        if (r.operation === 'positions' && r.status === 200 && r.issuerId) seen.add(r.issuerId);
      }
      return seen.size;
    };
    const daemon = spawnDaemon(stack.configPath, (s) => samples.push({ ...s, polls: pollCount() }));
    const checkpoints: Checkpoint[] = [];
    const rng = new Random(99);
    const started = Date.now();
    try {
      const settled = async (what: string, mark: number) => {
        // Cheap while waiting (the bench shares two cores with the daemon): count polls the sandbox answered,
        // then confirm every snapshot took the current data.
        await waitFor(what, () => polledSince(mark) >= ids.length, 300_000, 250);
        await waitFor(
          `${what}: snapshots`,
          async () =>
            (await snapshotsAtCurrent(stack.redis.redis, stack.prefix, scenario, ids)) === ids.length,
          60_000,
          1_000,
        );
        // Deliveries trail the polls: wait until the Slack stand-in has been quiet for a moment.
        let posts = -1;
        await waitFor(
          `${what}: deliveries drained`,
          () => {
            const quiet = stack.slack.posts.length === posts;
            posts = stack.slack.posts.length;
            return quiet;
          },
          120_000,
          1_500,
        );
      };
      const checkpoint = async (sweep: number) => {
        const last = samples.at(-1);
        checkpoints.push({
          sweep,
          polls: pollCount(),
          rssMb: (last?.rss ?? 0) / MB,
          heapMb: (last?.heapUsed ?? 0) / MB,
          cpuS: (last?.cpuMs ?? 0) / 1000,
          redis: await redisFootprint(stack.redis.redis, stack.prefix),
        });
        options.progress(
          `footprint: sweep ${sweep} done (${pollCount()} polls, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
        );
      };
      await settled('baseline of every issuer', 0);
      await checkpoint(0);
      for (let sweep = 1; sweep <= sweeps; sweep++) {
        const mark = stack.sandbox.stats.requests.length;
        churn(scenario, ids, rng, 0.03);
        await settled(`sweep ${sweep}`, mark);
        await checkpoint(sweep);
      }
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\ndaemon stderr: ${daemon.stderr()}`,
      );
    } finally {
      daemon.child.kill('SIGTERM');
      const timer = setTimeout(() => daemon.child.kill('SIGKILL'), 15_000);
      await daemon.exited;
      clearTimeout(timer);
      await stack.cleanup();
    }
    const first = checkpoints[0];
    const last = checkpoints.at(-1);
    if (!first || !last) throw new Error('no checkpoints');
    const afterBaseline = samples.filter((s) => s.polls >= first.polls);
    const perHour = (key: 'rss' | 'heapUsed') =>
      slope(afterBaseline.map((s) => ({ x: s.polls, y: s[key] / MB }))) * POLLS_PER_HOUR;
    const polled = last.polls - first.polls;
    const elapsedS = (samples.at(-1)?.at ?? 0) / 1000 - (samples[0]?.at ?? 0) / 1000;
    return {
      title: 'daemon and Redis footprint',
      scale: [
        `${issuers} watched issuers x ${HOLDERS} holders; one daemon (\`start\` in a child node with --expose-gc, memory sampled after a full GC every ${SAMPLE_MS / 1000} s).`,
        `Compressed hour: caps lifted, a refresh changing 3% of positions, then a full sweep of all ${issuers} issuers, ${sweeps} time(s) after the baseline: ${polled} polls after the baseline (an hour at 100 requests a minute is ${POLLS_PER_HOUR}), ${fixed(elapsedS, 0)} s of wall time.`,
        'poll.concurrency 16, Slack channel at 100 messages a second to a local stand-in.',
      ],
      tables: [
        {
          title: 'Daemon memory and Redis keys of the deployment at the end of each sweep',
          columns: ['sweep', 'polls', 'RSS MB', 'heap MB', 'daemon CPU s', 'Redis MB', 'Redis keys'],
          rows: checkpoints.map((c) => [
            c.sweep,
            c.polls,
            fixed(c.rssMb, 1),
            fixed(c.heapMb, 1),
            fixed(c.cpuS, 1),
            fixed(c.redis.total / MB, 2),
            c.redis.keys,
          ]),
        },
        {
          title:
            'Growth after the baseline (least-squares slope over the samples, per 6,000 polls = an hour at 100/min)',
          columns: ['figure', 'start MB', 'end MB', 'slope MB/hour-equivalent'],
          rows: [
            ['daemon RSS', fixed(first.rssMb, 1), fixed(last.rssMb, 1), fixed(perHour('rss'), 2)],
            [
              'daemon heap used (after GC)',
              fixed(first.heapMb, 1),
              fixed(last.heapMb, 1),
              fixed(perHour('heapUsed'), 2),
            ],
            [
              'Redis (this deployment)',
              fixed(first.redis.total / MB, 2),
              fixed(last.redis.total / MB, 2),
              fixed(((last.redis.total - first.redis.total) / MB / Math.max(1, polled)) * POLLS_PER_HOUR, 2),
            ],
          ],
        },
        {
          title: 'Redis KiB per watched issuer, by what the keys hold',
          columns: [
            'when',
            'snapshot',
            'event streams',
            'event-seen',
            'poll queue',
            'delivery queues',
            'other',
            'total',
            'keys',
          ],
          rows: [
            perIssuerRow('after baseline', first.redis, issuers),
            perIssuerRow(`after sweep ${last.sweep}`, last.redis, issuers),
          ],
        },
      ],
      notes: [
        `Daemon CPU after the baseline: ${fixed(((last.cpuS - first.cpuS) * 1000) / Math.max(1, polled), 2)} ms per upstream request (poll, diff, routing, Slack delivery, BullMQ bookkeeping).`,
        'Event streams are capped per issuer (poll.eventsKept, default 200) and event-seen keys expire; BullMQ keeps finished jobs by age and count (poll: 24 h / 10,000; deliveries: 7 days / 100,000), so Redis grows until those caps and then stays flat.',
        "RSS includes the V8 heap reserve and tsx's compiled sources; the heap figure is the live heap after a full GC.",
      ],
      data: { issuers, holders: HOLDERS, sweeps, samples, checkpoints },
    };
  },
};
