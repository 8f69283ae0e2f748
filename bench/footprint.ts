import { createScenario } from '../src/sandbox/index.js';
import { Random } from '../src/sandbox/prng.js';
import { type Stack, startStack, waitFor } from '../test/e2e/harness.js';
import { churn } from './lib/churn.js';
import { snapshotsAtCurrent } from './lib/daemons.js';
import { type MemorySample, spawnFootprintDaemon } from './lib/footprint-daemon-process.js';
import {
  type Checkpoint,
  ceilingTable,
  growthTable,
  perIssuerTable,
  REQUESTS_PER_HOUR,
  sweepTable,
  unitTable,
} from './lib/footprint-report.js';
import { redisFootprint } from './lib/redis-footprint.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed } from './lib/stats.js';

const HOLDERS = 25;
const LIFTED = { perMinute: 1_000_000, perDay: 1_000_000_000 };
const SAMPLE_MS = 1_000;
const MB = 1024 * 1024;

/** Issuers whose positions the sandbox answered (200) since request number `mark`. */
function polledSince(stack: Stack, mark: number): number {
  const seen = new Set<string>();
  for (const r of stack.sandbox.stats.requests.slice(mark)) {
    if (r.operation === 'positions' && r.status === 200 && r.issuerId) seen.add(r.issuerId);
  }
  return seen.size;
}

/** Waits until every issuer was polled since `mark`, every snapshot holds the current data and Slack is quiet. */
async function settle(stack: Stack, ids: readonly string[], mark: number, what: string): Promise<void> {
  // Cheap while waiting (the bench shares the cores with the daemon); the snapshots are read once at the end.
  await waitFor(what, () => polledSince(stack, mark) >= ids.length, 300_000, 250);
  const { redis } = stack.redis;
  await waitFor(
    `${what}: snapshots`,
    async () => (await snapshotsAtCurrent(redis, stack.prefix, stack.sandbox.scenario, ids)) === ids.length,
    60_000,
    1_000,
  );
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
}

/** Daemon memory and Redis memory per watched issuer over a compressed hour of polling. */
export const footprint: Benchmark = {
  name: 'footprint',
  summary: 'daemon RSS and heap, and Redis memory per watched issuer, over an hour-equivalent of polling',
  async run(options: BenchOptions): Promise<BenchReport> {
    const issuers = options.quick ? 200 : 1000;
    const sweeps = options.quick ? 2 : 6;
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
    const requests = () => stack.sandbox.stats.count({ operation: 'positions' });
    const samples: MemorySample[] = [];
    const daemon = spawnFootprintDaemon(stack.configPath, SAMPLE_MS, (s) => samples.push(s));
    const checkpoints: Checkpoint[] = [];
    const rng = new Random(99);
    const started = Date.now();
    const checkpoint = async (sweep: number) => {
      // A sample taken after the sweep settled: the idle daemon.
      const seen = samples.length;
      await waitFor('a fresh memory sample', () => samples.length > seen, 10_000, 100);
      const last = samples.at(-1);
      checkpoints.push({
        sweep,
        requests: requests(),
        rssMb: (last?.rss ?? 0) / MB,
        heapMb: (last?.heapUsed ?? 0) / MB,
        cpuS: (last?.cpuMs ?? 0) / 1000,
        redis: await redisFootprint(stack.redis.redis, stack.prefix, 'desk'),
      });
      options.progress(
        `footprint: sweep ${sweep} settled (${requests()} requests, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
    };
    try {
      await settle(stack, ids, 0, 'baseline of every issuer');
      await checkpoint(0);
      for (let sweep = 1; sweep <= sweeps; sweep++) {
        const mark = stack.sandbox.stats.requests.length;
        churn(scenario, ids, rng, 0.03);
        await settle(stack, ids, mark, `sweep ${sweep}`);
        await checkpoint(sweep);
      }
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\ndaemon stderr: ${daemon.stderr()}`,
      );
    } finally {
      await daemon.stop();
      await stack.cleanup();
    }
    const first = checkpoints[0];
    const last = checkpoints.at(-1);
    if (!first || !last) throw new Error('no checkpoints');
    const afterBaseline = last.requests - first.requests;
    return {
      title: 'daemon and Redis footprint',
      scale: [
        `${issuers} watched issuers x ${HOLDERS} holders; one daemon (\`start\` in a child node with --expose-gc, memory read after a full GC).`,
        `Compressed hour: caps lifted; ${sweeps} refreshes changing 3% of positions, each followed by a full sweep of all ${issuers} issuers: ${afterBaseline} upstream requests after the baseline (an hour at 100 a minute is ${REQUESTS_PER_HOUR}) in ${fixed((Date.now() - started) / 1000, 0)} s.`,
        'poll.concurrency 16; Slack channel at 100 messages a second to a local stand-in; every figure is read once the sweep settled.',
      ],
      tables: [
        sweepTable(checkpoints),
        growthTable(checkpoints),
        perIssuerTable(
          [
            ['after baseline', first.redis],
            [`after sweep ${last.sweep}`, last.redis],
          ],
          issuers,
        ),
        unitTable(last.redis),
        ceilingTable(last.redis),
      ],
      notes: [
        `Daemon CPU after the baseline: ${fixed(((last.cpuS - first.cpuS) * 1000) / Math.max(1, afterBaseline), 2)} ms per upstream request (poll, diff, routing, Slack delivery, BullMQ bookkeeping).`,
        'Sweep 0 is the baseline: the first sweep with events also loads the delivery code, so growth is measured from sweep 1.',
        "Redis grows with retained history by design (event streams, logged event ids, finished poll jobs, each channel's dedupe memory, the record of sent messages and the dead letter) until each retention bound; the last table gives each ceiling at 1,000 issuers.",
        "RSS includes V8's reserve and tsx's compiled sources; the heap figure is the live heap after a full GC.",
      ],
      data: { issuers, holders: HOLDERS, sweeps, checkpoints, samples },
    };
  },
};
