import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '../test/e2e/harness.js';
import { type RegisterStack, startRegisterStack } from '../test/e2e/register-stack.js';
import { registerBytes } from '../test/helpers/register-fixtures.js';
import { loneTable, runLone } from './lib/e2e-lone.js';
import { LIFTED } from './lib/e2e-stack.js';
import { SERVED } from './lib/register-served.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, quantile } from './lib/stats.js';

/** The goal: a changed register file told on Slack within 5 s. */
const GOAL_MS = 5_000;
/** How often each register source is read: the bench's stand-in for the register's schedule. */
const INTERVAL_MS = 500;

/** Waits until the Slack stand-in got nothing for a second: the last round's messages are all out. */
async function settle(registers: RegisterStack): Promise<void> {
  for (;;) {
    const posts = registers.stack.slack.delivered().length;
    await sleep(1_000);
    if (registers.stack.slack.delivered().length === posts) return;
  }
}

/**
 * Every fixture served by a local stand-in and read every 500 ms by one in-process daemon; per fixture,
 * each round serves the other copy (the modified one, or the fixture back) and times the first Slack
 * post after it. Only that file changes in its round.
 */
async function runRegisterRounds(rounds: number, progress: (line: string) => void): Promise<number[][]> {
  // Built before the stack starts: SheetJS writes the CONSOB and CNMV workbooks in seconds.
  const copies = SERVED.map((s) => ({ original: registerBytes(s.fixture), changed: s.changed() }));
  const registers = await startRegisterStack(SERVED, {
    channels: ['slack'],
    sandbox: { limits: LIFTED },
    config: { budget: { ...LIFTED, reserve: 10 }, log: { level: 'error', format: 'json' } },
  });
  const latencies: number[][] = [];
  try {
    for (const [i, source] of SERVED.entries()) {
      const copy = copies[i];
      if (copy === undefined) throw new Error(`no copy of ${source.name}`);
      const ms: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const posts = registers.stack.slack.delivered().length;
        const served = Date.now();
        registers.server.serve(source.path, round % 2 === 0 ? copy.changed : copy.original);
        const post = await waitFor(
          'the Slack post',
          () => registers.stack.slack.delivered()[posts],
          30_000,
          10,
        );
        if (post === undefined) throw new Error('no Slack post');
        ms.push(post.receivedAt.getTime() - served);
        await settle(registers);
      }
      latencies.push(ms);
      progress(`register-e2e: ${source.label}, ${rounds} file changes done`);
    }
  } finally {
    await registers.close();
  }
  return latencies;
}

async function run({ quick, progress }: BenchOptions): Promise<BenchReport> {
  // An even number of rounds leaves every file as it started; quick runs one change per file.
  const rounds = quick ? 1 : 4;
  const register = await runRegisterRounds(rounds, progress);
  const api = await runLone(50, quick ? 3 : 10, 1, progress);
  const rows = SERVED.map((source, i) => {
    const ms = register[i] ?? [];
    return [source.label, ms.length, fixed(quantile(ms, 0.5), 0), fixed(quantile(ms, 1), 0)];
  });
  return {
    title: 'register file change → Slack, per register, beside the API source in the same run',
    scale: [
      `${rounds} round(s) per register, ${SERVED.length} registers read by one daemon every ${INTERVAL_MS} ms (production: its interval, default 1 h)`,
    ],
    tables: [
      {
        title: `File replaced on the local server → first Slack post (goal under ${GOAL_MS / 1000} s)`,
        columns: ['register', 'rounds', 'p50 ms', 'max ms'],
        rows,
      },
      loneTable(api),
    ],
    notes: [
      `The register figure includes waiting for the next read: up to one interval (${INTERVAL_MS} ms here), or longer while the one worker reads the other sources; in production the wait is the source's interval, the rest is the same.`,
      "Rounds alternate the modified copy (the register e2e tests' changes) and the fixture back; the legacy UK workbook's change is its regime boundary (holders dropped after namedHoldersUntil, one message per issuer).",
      'The API figure is from the sandbox answering the poll to the Slack post (e2e-latency lone case), in the same run.',
    ],
    data: { registers: SERVED.map((s, i) => ({ name: s.name, ms: register[i] })), api },
  };
}

/** File change → Slack for every register source, with the API's lone-event figure beside it. */
export const registerE2e: Benchmark = {
  name: 'register-e2e',
  summary:
    'time from a register file changed on a local server to the Slack post, per register, beside the API',
  run,
};
