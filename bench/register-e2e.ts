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

/** One timed file change: the time to the first Slack post, and whether its read was held back first. */
interface Round {
  ms: number;
  held: boolean;
}

/**
 * The two ways a changed file reaches Slack, measured in the same run: without the confirming read
 * (`confirm.share: 1`, nothing is ever held: the figure before issue 28), and with it on every read
 * that removes anything (`confirm.share: 0`: held, read again after `confirm.after`, by default the
 * source's interval, then committed).
 */
const VARIANTS = [
  { name: 'without', share: 1 },
  { name: 'confirmed', share: 0 },
] as const;

/**
 * Every fixture served by a local stand-in and read every 500 ms by one in-process daemon; per fixture,
 * each round serves the other copy (the modified one, or the fixture back) and times the first Slack
 * post after it, noting whether a read of it was held back for the confirming read. Only that file
 * changes in its round.
 */
async function runRegisterRounds(
  rounds: number,
  share: number,
  progress: (line: string) => void,
): Promise<Round[][]> {
  // Built before the stack starts: SheetJS writes the CONSOB and CNMV workbooks in seconds.
  const copies = SERVED.map((s) => ({ original: registerBytes(s.fixture), changed: s.changed() }));
  const sources = SERVED.map((s) => ({ ...s, config: { ...s.config, confirm: { share } } }));
  const registers = await startRegisterStack(sources, {
    channels: ['slack'],
    sandbox: { limits: LIFTED },
    config: { budget: { ...LIFTED, reserve: 10 }, log: { level: 'error', format: 'json' } },
  });
  const latencies: Round[][] = [];
  try {
    for (const [i, source] of SERVED.entries()) {
      const copy = copies[i];
      if (copy === undefined) throw new Error(`no copy of ${source.name}`);
      const done: Round[] = [];
      for (let round = 0; round < rounds; round++) {
        const posts = registers.stack.slack.delivered().length;
        const served = Date.now();
        registers.server.serve(source.path, round % 2 === 0 ? copy.changed : copy.original);
        let held = false;
        const post = await waitFor(
          'the Slack post',
          async () => {
            held ||= (await registers.store().held(source.name)) !== null;
            return registers.stack.slack.delivered()[posts];
          },
          30_000,
          10,
        );
        if (post === undefined) throw new Error('no Slack post');
        done.push({ ms: post.receivedAt.getTime() - served, held });
        await settle(registers);
      }
      latencies.push(done);
      progress(`register-e2e (confirm.share ${share}): ${source.label}, ${rounds} file changes done`);
    }
  } finally {
    await registers.close();
  }
  return latencies;
}

/** p50 and max of some rounds' times, or dashes when there are none. */
function spread(rounds: readonly Round[]): (string | number)[] {
  const ms = rounds.map((r) => r.ms);
  return ms.length === 0 ? ['-', '-'] : [fixed(quantile(ms, 0.5), 0), fixed(quantile(ms, 1), 0)];
}

async function run({ quick, progress }: BenchOptions): Promise<BenchReport> {
  // An even number of rounds leaves every file as it started; quick runs one change per file.
  const rounds = quick ? 1 : 4;
  const measured: Round[][][] = [];
  for (const variant of VARIANTS) measured.push(await runRegisterRounds(rounds, variant.share, progress));
  const api = await runLone(50, quick ? 3 : 10, 1, progress);
  const rows = SERVED.map((source, i) => {
    const today = measured[0]?.[i] ?? [];
    const held = (measured[1]?.[i] ?? []).filter((r) => r.held);
    return [source.label, today.length, ...spread(today), `${held.length}/${rounds}`, ...spread(held)];
  });
  return {
    title:
      'register file change → Slack, per register, with the confirming read and without, beside the API source in the same run',
    scale: [
      `${rounds} round(s) per register and per way, ${SERVED.length} registers read by one daemon every ${INTERVAL_MS} ms (production: its interval, default 1 h); the confirming read ${INTERVAL_MS} ms after the held one (confirm.after's default, the interval)`,
    ],
    tables: [
      {
        title: `File replaced on the local server → first Slack post (goal under ${GOAL_MS / 1000} s)`,
        columns: [
          'register',
          'rounds',
          'without: p50 ms',
          'without: max ms',
          'held for the confirming read',
          'confirmed: p50 ms',
          'confirmed: max ms',
        ],
        rows,
      },
      loneTable(api),
    ],
    notes: [
      `The register figure includes waiting for the next read: up to one interval (${INTERVAL_MS} ms here), or longer while the one worker reads the other sources; in production the wait is the source's interval, the rest is the same.`,
      '"Without" reads with confirm.share 1 (nothing held: the figure before issue 28); "confirmed" with confirm.share 0, so every read that removes a holder or an issuer is held back and told after the confirming read: its figures are of those rounds only (a round whose file only adds, such as a fixture served back after an addition, is not held and not counted there).',
      "Rounds alternate the modified copy (the register e2e tests' changes) and the fixture back; the legacy UK workbook's change is its regime boundary (holders dropped after namedHoldersUntil, one message per issuer).",
      'The API figure is from the sandbox answering the poll to the Slack post (e2e-latency lone case), in the same run.',
    ],
    data: {
      registers: SERVED.map((s, i) => ({
        name: s.name,
        without: measured[0]?.[i],
        confirmed: measured[1]?.[i],
      })),
      api,
    },
  };
}

/** File change → Slack for every register source, with the API's lone-event figure beside it. */
export const registerE2e: Benchmark = {
  name: 'register-e2e',
  summary:
    'time from a register file changed on a local server to the Slack post, per register, with and without the confirming read, beside the API',
  run,
};
