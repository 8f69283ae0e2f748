import { runRound } from './e2e-round.js';
import { type ConfigPatch, openBenchStack, withDaemons } from './e2e-stack.js';
import type { BenchTable } from './report.js';
import { fixed, quantile } from './stats.js';

/** The goal for a lone event: p50 from the sandbox's answer to Slack. */
export const LONE_GOAL_P50_MS = 100;

/** A lone event's latency over rounds, one issuer changing per round. */
export interface LoneFigures {
  watched: number;
  rounds: number;
  ratePerSecond: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  messages: number;
}

/** One issuer changes at a time, `rounds` times (each a different issuer); one `shortwatch start`. */
export async function runLone(
  watched: number,
  rounds: number,
  ratePerSecond: number,
  progress: (line: string) => void,
  patch?: ConfigPatch,
): Promise<LoneFigures> {
  const bench = await openBenchStack(watched, { ratePerSecond }, patch);
  const latenciesMs: number[] = [];
  let messages = 0;
  try {
    await withDaemons(bench, 1, async () => {
      for (let r = 0; r < rounds; r++) {
        // A stride coprime with the list size visits different issuers in scattered polling positions.
        const id = bench.ids[(r * 7) % bench.ids.length] ?? '';
        const round = await runRound(bench.stack, [id], bench.ids, 30_000);
        latenciesMs.push(...round.latenciesMs);
        messages += round.messages;
      }
    });
    progress(`e2e-latency: ${rounds} lone events done`);
  } finally {
    await bench.stack.cleanup();
  }
  return {
    watched,
    rounds,
    ratePerSecond,
    p50Ms: quantile(latenciesMs, 0.5),
    p95Ms: quantile(latenciesMs, 0.95),
    maxMs: quantile(latenciesMs, 1),
    messages,
  };
}

/** The lone event's figures, over all rounds. */
export function loneTable(f: LoneFigures): BenchTable {
  return {
    title: `Lone event: one of ${f.watched} issuers changes, Slack at ${f.ratePerSecond} messages/s; sandbox answer → Slack post, over ${f.rounds} rounds`,
    columns: ['rounds', 'p50 ms', 'p95 ms', 'max ms', 'messages'],
    rows: [[f.rounds, fixed(f.p50Ms, 0), fixed(f.p95Ms, 0), fixed(f.maxMs, 0), f.messages]],
  };
}
