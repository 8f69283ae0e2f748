import { BEFORE_OUTBOX, type BurstFigures, burstNotes, burstTable, runBurst } from './lib/e2e-burst.js';
import { EMAIL_BURST_GOAL_P95_S, emailBurstTable, runEmailBurst } from './lib/e2e-email-burst.js';
import { LONE_GOAL_P50_MS, type LoneFigures, loneTable, runLone } from './lib/e2e-lone.js';
import { type RoundResult, runRound } from './lib/e2e-round.js';
import { openBenchStack, withDaemons } from './lib/e2e-stack.js';
import type { Benchmark, BenchOptions, BenchReport, BenchTable } from './lib/report.js';
import { formatSpread, quantile, type Spread, spread } from './lib/stats.js';

/** The schema's highest `ratePerSecond`: the channel's deliverer sends at most this many messages a second. */
const SLACK_RATE = 100;
/** Issuers watched in the lone-event case. */
const LONE_WATCHED = 50;

interface WorkerFigures {
  processes: number;
  p50: Spread;
  p99: Spread;
  pollsPerSecond: Spread;
  completionS: Spread;
  /** Slack posts a round. */
  messages: Spread;
}

/** Every issuer changes at once, `rounds` times, with each process count in turn. */
async function runProcesses(
  issuers: number,
  processCounts: readonly number[],
  rounds: number,
  progress: (line: string) => void,
): Promise<WorkerFigures[]> {
  const bench = await openBenchStack(issuers, { ratePerSecond: SLACK_RATE });
  const results: WorkerFigures[] = [];
  try {
    const timeoutMs = (issuers / SLACK_RATE) * 2000 + 60_000;
    for (const count of processCounts) {
      const done: RoundResult[] = [];
      await withDaemons(bench, count, async () => {
        for (let r = 0; r < rounds; r++)
          done.push(await runRound(bench.stack, bench.ids, bench.ids, timeoutMs));
      });
      results.push({
        processes: count,
        p50: spread(done.map((d) => quantile(d.latenciesMs, 0.5))),
        p99: spread(done.map((d) => quantile(d.latenciesMs, 0.99))),
        pollsPerSecond: spread(done.map((d) => d.pollsPerSecond)),
        completionS: spread(done.map((d) => d.completionMs / 1000)),
        messages: spread(done.map((d) => d.messages)),
      });
      progress(`e2e-latency: ${count} process(es) done`);
    }
  } finally {
    await bench.stack.cleanup();
  }
  return results;
}

function processTable(issuers: number, results: readonly WorkerFigures[]): BenchTable {
  return {
    title: `All ${issuers} issuers change at once: sandbox answered the poll → first Slack post naming the issuer; median over rounds (range)`,
    columns: ['processes', 'p50 ms', 'p99 ms', 'polls/s', 'first poll → last issuer named s', 'messages'],
    rows: results.map((r) => [
      r.processes,
      formatSpread(r.p50, 0),
      formatSpread(r.p99, 0),
      formatSpread(r.pollsPerSecond, 0),
      formatSpread(r.completionS, 2),
      formatSpread(r.messages, 0),
    ]),
  };
}

function scaleLines(issuers: number, rounds: number, burst: BurstFigures, lone: LoneFigures): string[] {
  return [
    `Every case: caps lifted (budget and sandbox 1,000,000/min); gate every 1 s; poll.concurrency 4 per process; one Redis, sandbox and Slack stand-in in the bench process.`,
    `Processes: ${issuers} issuers all change at once, ${rounds} round(s) per process count; one \`shortwatch start\` plus N-1 \`shortwatch worker\` (node --import tsx); Slack ratePerSecond ${SLACK_RATE} (the schema's maximum).`,
    `Burst: ${burst.changed} of ${burst.watched} watched issuers change in one refresh, ${burst.rounds} round(s); one \`shortwatch start\`; Slack ratePerSecond not set (the schema's default, ${burst.ratePerSecond}/s).`,
    `Lone event: one of ${lone.watched} watched issuers changes at a time, ${lone.rounds} rounds; one \`shortwatch start\`; Slack ratePerSecond ${lone.ratePerSecond}.`,
  ];
}

const NOTES = [
  'Latency per changed issuer: the sandbox answering its positions request (200) → the Slack stand-in receiving the first post that names it; one post may name many issuers when a backlog coalesces.',
  'messages: Slack posts received in a round; fewer than the issuers changed when posts carried several issuers.',
  'polls/s: distinct issuers whose positions request the sandbox answered per second, from the first to the last poll of a round.',
  'The time before the first poll (up to one gate interval) is not counted in "sandbox answer" figures; the burst\'s "the refresh" row counts it.',
  `Goal stated in the issue: lone event p50 under ${LONE_GOAL_P50_MS} ms. Printed, not asserted.`,
  'Timestamps come from one clock: the sandbox and the Slack stand-in run in the same process.',
];

/** End-to-end latency through real processes: sandbox → poll → diff → outbox → deliverer → Slack stand-in. */
export const e2eLatency: Benchmark = {
  name: 'e2e-latency',
  summary:
    'sandbox answer → Slack post through real processes: all issuers at once with 1, 2 and 4 processes, a burst at the default Slack rate, a lone event; and a 110-issuer e-mail burst, one at a time and pooled',
  async run(options: BenchOptions): Promise<BenchReport> {
    const issuers = options.quick ? 50 : 200;
    const processCounts = options.quick ? [1, 2] : [1, 2, 4];
    const rounds = options.quick ? 1 : 3;
    const burstSize = options.quick
      ? { watched: 100, changed: 30, rounds: 1 }
      : { watched: 300, changed: 90, rounds: 2 };
    const processes = await runProcesses(issuers, processCounts, rounds, options.progress);
    const burst = await runBurst(burstSize, options.progress);
    const lone = await runLone(LONE_WATCHED, options.quick ? 5 : 10, SLACK_RATE, options.progress);
    const emailBurst = await runEmailBurst(options.progress);
    return {
      title: 'end-to-end latency through real processes',
      scale: scaleLines(issuers, rounds, burst, lone),
      tables: [
        processTable(issuers, processes),
        burstTable(burst),
        loneTable(lone),
        emailBurstTable(emailBurst),
      ],
      notes: [
        ...NOTES,
        ...burstNotes(burst),
        `E-mail burst: one \`shortwatch start\`, one e-mail channel to a local SMTP server, each setting on a fresh stack in this run; goal p95 under ${EMAIL_BURST_GOAL_P95_S} s, printed, not asserted.`,
      ],
      data: {
        issuers,
        rounds,
        slackRatePerSecond: SLACK_RATE,
        processes,
        burst,
        beforeOutbox: BEFORE_OUTBOX,
        lone,
        emailBurst,
      },
    };
  },
};
