import type { Scenario } from '../src/sandbox/index.js';
import { HOLDER_NAMES } from '../src/sandbox/names.js';
import { type Stack, startStack, waitFor } from '../test/e2e/harness.js';
import { snapshotsAtCurrent, startDaemons, stopDaemons } from './lib/daemons.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { formatSpread, quantile, type Spread, spread } from './lib/stats.js';

const LIFTED = { perMinute: 1_000_000, perDay: 1_000_000_000 };
/** The schema's highest `ratePerSecond`: the channel's BullMQ limiter still allows at most this many sends a second. */
const SLACK_RATE = 100;

/** One round: every watched issuer changes at once. */
interface Round {
  /** Sandbox answer (positions request) → Slack stand-in received, per issuer, ms. */
  latenciesMs: number[];
  /** Positions requests a second, first to last poll of the round. */
  pollsPerSecond: number;
  /** First poll answered → last Slack message received, ms. */
  completionMs: number;
}

/** Moves one position of every issuer (or opens one), synchronously: one refresh of the dataset. */
function changeAll(scenario: Scenario, issuerIds: readonly string[]): void {
  for (const id of issuerIds) {
    const row = scenario.active(id)?.[0];
    if (row) scenario.disclose(id, row.position_holder, Math.round((row.value + 0.13) * 100) / 100);
    else scenario.disclose(id, HOLDER_NAMES[0] ?? 'Marshall Wace LLP', 0.77);
  }
}

async function runRound(stack: Stack, issuerIds: readonly string[]): Promise<Round> {
  const { sandbox, slack } = stack;
  const requestMark = sandbox.stats.requests.length;
  const postMark = slack.posts.length;
  changeAll(sandbox.scenario, issuerIds);
  const newPosts = () => slack.delivered().filter((p) => slack.posts.indexOf(p) >= postMark);
  await waitFor('a Slack message per issuer', () => newPosts().length >= issuerIds.length, 120_000, 50);
  const polledAt = new Map<string, number>();
  for (const record of sandbox.stats.requests.slice(requestMark)) {
    if (record.operation === 'positions' && record.status === 200 && record.issuerId)
      polledAt.set(record.issuerId, record.at);
  }
  const latenciesMs: number[] = [];
  let lastPost = 0;
  for (const post of newPosts()) {
    const issuer = /ISS-\d{4}/.exec(JSON.stringify(post.payload))?.[0];
    const at = issuer === undefined ? undefined : polledAt.get(issuer);
    if (at === undefined) continue;
    latenciesMs.push(post.receivedAt.getTime() - at);
    lastPost = Math.max(lastPost, post.receivedAt.getTime());
  }
  const polls = [...polledAt.values()];
  const first = Math.min(...polls);
  const spanMs = Math.max(...polls) - first;
  // Let every snapshot commit before the next round changes the data again.
  await waitFor(
    'snapshots committed',
    async () =>
      (await snapshotsAtCurrent(stack.redis.redis, stack.prefix, sandbox.scenario, issuerIds)) ===
      issuerIds.length,
    60_000,
    100,
  );
  return {
    latenciesMs,
    pollsPerSecond: polls.length / Math.max(spanMs / 1000, 0.001),
    completionMs: lastPost - first,
  };
}

interface WorkerFigures {
  processes: number;
  p50: Spread;
  p99: Spread;
  pollsPerSecond: Spread;
  completionS: Spread;
  messages: number;
}

/** End-to-end latency through real processes: sandbox → poll → diff → route → Slack stand-in. */
export const e2eLatency: Benchmark = {
  name: 'e2e-latency',
  summary:
    'all issuers change at once, caps lifted: sandbox answer → Slack message, with 1, 2 and 4 processes',
  async run(options: BenchOptions): Promise<BenchReport> {
    const issuers = options.quick ? 50 : 200;
    const processCounts = options.quick ? [1, 2] : [1, 2, 4];
    const rounds = options.quick ? 1 : 3;
    const stack = await startStack({
      issuers,
      seed: 11,
      channels: ['slack'],
      sandbox: { limits: LIFTED },
      config: { budget: { ...LIFTED, reserve: 10 }, poll: { gateInterval: '1s', concurrency: 4 } },
    });
    const results: WorkerFigures[] = [];
    try {
      stack.writeConfig({
        ...stack.configObject,
        channels: [
          {
            name: 'desk',
            kind: 'slack',
            webhookUrl: stack.slack.url,
            ratePerSecond: SLACK_RATE,
            backoff: '200ms',
            attempts: 6,
          },
        ],
      });
      const ids = stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id);
      for (const count of processCounts) {
        const daemons = await startDaemons(stack.redis.redis, stack.prefix, stack.configPath, count);
        try {
          await waitFor(
            'baseline snapshots',
            async () =>
              (await snapshotsAtCurrent(stack.redis.redis, stack.prefix, stack.sandbox.scenario, ids)) ===
              ids.length,
            120_000,
            200,
          );
          const done: Round[] = [];
          for (let r = 0; r < rounds; r++) done.push(await runRound(stack, ids));
          results.push({
            processes: count,
            p50: spread(done.map((d) => quantile(d.latenciesMs, 0.5))),
            p99: spread(done.map((d) => quantile(d.latenciesMs, 0.99))),
            pollsPerSecond: spread(done.map((d) => d.pollsPerSecond)),
            completionS: spread(done.map((d) => d.completionMs / 1000)),
            messages: done.reduce((s, d) => s + d.latenciesMs.length, 0),
          });
          options.progress(`e2e-latency: ${count} process(es) done`);
        } finally {
          await stopDaemons(daemons);
        }
      }
    } finally {
      await stack.cleanup();
    }
    return {
      title: 'end-to-end latency through real processes',
      scale: [
        `${issuers} issuers all change at once, ${rounds} round(s) per process count; caps lifted (budget and sandbox 1,000,000/min); gate every 1 s; poll.concurrency 4 per process.`,
        `Processes: one \`shortwatch start\` plus N-1 \`shortwatch worker\` (node --import tsx), one Redis, sandbox and Slack stand-in in the bench process.`,
        `Slack channel ratePerSecond ${SLACK_RATE} (the schema's maximum): ${issuers} messages need at least ${(issuers / SLACK_RATE).toFixed(1)} s whatever the process count.`,
      ],
      tables: [
        {
          title:
            'Sandbox answered the poll → Slack stand-in received the message; median over rounds (range)',
          columns: ['processes', 'p50 ms', 'p99 ms', 'polls/s', 'first poll → last message s', 'messages'],
          rows: results.map((r) => [
            r.processes,
            formatSpread(r.p50, 0),
            formatSpread(r.p99, 0),
            formatSpread(r.pollsPerSecond, 0),
            formatSpread(r.completionS, 2),
            r.messages,
          ]),
        },
      ],
      notes: [
        'polls/s: positions requests the sandbox answered per second, from the first to the last poll of a round.',
        'The time before the first poll (up to one gate interval) is not counted: the clock starts when the sandbox answers.',
        'Timestamps come from one clock: the sandbox and the Slack stand-in run in the same process.',
      ],
      data: { issuers, rounds, slackRatePerSecond: SLACK_RATE, results },
    };
  },
};
