import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleRender } from './console-render.js';
import { detection } from './detection.js';
import { detectionScale } from './detection-scale.js';
import { diffThroughput } from './diff-throughput.js';
import { durability } from './durability.js';
import { e2eLatency } from './e2e-latency.js';
import { footprint } from './footprint.js';
import { type Benchmark, formatReport, machineInfo, writeReport } from './lib/report.js';
import { registerE2e } from './register-e2e.js';
import { registerIsolation } from './register-isolation.js';
import { registers } from './registers.js';
import { subscriberFanout } from './subscriber-fanout.js';

const BENCHMARKS: readonly Benchmark[] = [
  detection,
  detectionScale,
  diffThroughput,
  e2eLatency,
  footprint,
  consoleRender,
  registers,
  registerE2e,
  durability,
  registerIsolation,
  subscriberFanout,
];
const RESULTS = join(new URL('.', import.meta.url).pathname, 'results');

const USAGE = `usage: npm run bench -- [--quick] [--only NAME[,NAME...]]
  --quick   a fast smoke run of every benchmark (CI)
  --only    run only these benchmarks: ${BENCHMARKS.map((b) => b.name).join(', ')}`;

function select(only: string | undefined): Benchmark[] | string {
  if (only === undefined) return [...BENCHMARKS];
  const names = only.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length > 0) return `unknown benchmark: ${unknown.join(', ')}`;
  return BENCHMARKS.filter((b) => names.includes(b.name));
}

async function main(): Promise<number> {
  let values: { quick?: boolean; only?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        quick: { type: 'boolean' },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const chosen = select(values.only);
  if (typeof chosen === 'string') {
    process.stderr.write(`${chosen}\n${USAGE}\n`);
    return 2;
  }
  const quick = values.quick ?? false;
  const machine = machineInfo();
  process.stdout.write(
    `shortwatch benchmarks${quick ? ' (--quick: smoke run, small scale)' : ''} on ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, node ${machine.node}, load average ${machine.loadAverage1m}\n\n`,
  );
  const started = performance.now();
  let failed = 0;
  for (const bench of chosen) {
    const t0 = performance.now();
    try {
      const report = await bench.run({ quick, progress: (line) => process.stderr.write(`  .. ${line}\n`) });
      const elapsedMs = performance.now() - t0;
      process.stdout.write(`${formatReport(bench.name, report, elapsedMs)}\n`);
      writeReport(RESULTS, bench.name, report, { quick, elapsedMs: Math.round(elapsedMs) });
    } catch (error) {
      failed++;
      process.stderr.write(
        `benchmark ${bench.name} crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    }
  }
  process.stdout.write(
    `total ${((performance.now() - started) / 1000).toFixed(1)} s; JSON in bench/results/\n`,
  );
  // A benchmark never asserts a figure; only a crash fails the run.
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
