import type { App } from '../src/app.js';
import { RegisterStore } from '../src/state/register-store.js';
import { startStack, waitFor } from '../test/e2e/harness.js';
import { AFM_FIXTURE, afmChanged } from '../test/e2e/register-changes.js';
import { startRegisterServer } from '../test/e2e/register-server.js';
import { registerBytes } from '../test/helpers/register-fixtures.js';
import { loneTable, runLone } from './lib/e2e-lone.js';
import { LIFTED } from './lib/e2e-stack.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, quantile } from './lib/stats.js';

/** The goal: a changed register file told on Slack within 5 s. */
const GOAL_MS = 5_000;
/** How often the bench's register source is read: the bench's stand-in for the register's schedule. */
const INTERVAL_MS = 500;

/**
 * The AFM file served by a local stand-in and read every 500 ms by one in-process daemon; each round
 * serves the other copy (a holder raised and one gone, or back) and times the first Slack post after it.
 */
async function runRegisterRounds(rounds: number): Promise<number[]> {
  const server = await startRegisterServer();
  const original = registerBytes(AFM_FIXTURE);
  server.serve('/afm.csv', original);
  const stack = await startStack({
    issuers: 1,
    channels: ['slack'],
    sandbox: { limits: LIFTED },
    config: {
      budget: { ...LIFTED, reserve: 10 },
      log: { level: 'error', format: 'json' },
      sources: [
        { name: 'afm', kind: 'afm-current', url: server.url('/afm.csv'), interval: `${INTERVAL_MS}ms` },
      ],
    },
  });
  const app = await stack.openApp();
  const latencies: number[] = [];
  try {
    await app.startDaemon({ workerOnly: false });
    await waitFor(
      'the baseline read',
      async () => (await registerStore(app).health('afm'))?.status === 'read',
    );
    for (let round = 0; round < rounds; round++) {
      const posts = stack.slack.delivered().length;
      const served = Date.now();
      server.serve('/afm.csv', round % 2 === 0 ? afmChanged() : original);
      const post = await waitFor('the Slack post', () => stack.slack.delivered()[posts], 30_000, 10);
      if (post === undefined) throw new Error('no Slack post');
      latencies.push(post.receivedAt.getTime() - served);
      // Let the last message of the round go out before the next change.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
    }
  } finally {
    await app.stop(2_000);
    await stack.cleanup();
    await server.close();
  }
  return latencies;
}

async function run({ quick, progress }: BenchOptions): Promise<BenchReport> {
  const rounds = quick ? 3 : 10;
  const register = await runRegisterRounds(rounds);
  progress(`register-e2e: ${rounds} file changes done`);
  const api = await runLone(50, rounds, 1, progress);
  const row = (ms: number[]) => [
    rounds,
    fixed(quantile(ms, 0.5), 0),
    fixed(quantile(ms, 0.95), 0),
    fixed(quantile(ms, 1), 0),
  ];
  return {
    title: 'register file change → Slack, beside the API source in the same run',
    scale: [
      `${rounds} rounds each; the register read every ${INTERVAL_MS} ms (production: its interval, default 1 h)`,
    ],
    tables: [
      {
        title: `AFM file replaced on the local server → first Slack post (goal under ${GOAL_MS / 1000} s)`,
        columns: ['rounds', 'p50 ms', 'p95 ms', 'max ms'],
        rows: [row(register)],
      },
      loneTable(api),
    ],
    notes: [
      `The register figure includes waiting for the next read: up to one interval (${INTERVAL_MS} ms here); in production the wait is the source's interval, the rest is the same.`,
      'The API figure is from the sandbox answering the poll to the Slack post (e2e-latency lone case), in the same run.',
    ],
    data: { registerMs: register, api },
  };
}

/** File change → Slack for a register source, with the API's lone-event figure beside it. */
export const registerE2e: Benchmark = {
  name: 'register-e2e',
  summary: 'time from a register file changed on a local server to the Slack post, beside the API source',
  run,
};

/** The register sources' health, read back as `status` reads it. */
function registerStore(app: App): RegisterStore {
  return new RegisterStore(app.redis, app.ctx.prefix);
}
