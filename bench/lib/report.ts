import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { renderTable } from '../../src/cli/table.js';

/** One printed table; the same rows go to the JSON file. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

/** What a benchmark hands back: tables for people, `data` (raw figures) for machines. */
export interface BenchReport {
  title: string;
  /** The scale the figures were taken at (windows shortened, sizes, runs): always printed. */
  scale: string[];
  tables: BenchTable[];
  /** Reading notes printed under the tables. */
  notes: string[];
  data: unknown;
}

/** How a benchmark runs. */
export interface BenchOptions {
  /** A fast smoke run (CI): every figure, fewer and shorter runs. */
  quick: boolean;
  /** Progress lines, to standard error. */
  progress: (line: string) => void;
}

/** One benchmark: a name for `--only`, and the run. */
export interface Benchmark {
  name: string;
  summary: string;
  run(options: BenchOptions): Promise<BenchReport>;
}

/** The machine the figures came from. */
export function machineInfo(): Record<string, string | number> {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    // Other work on the machine slows the wall-clock benchmarks; the figures should say so.
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** The report as printed text: title, scale, tables, notes. */
export function formatReport(name: string, report: BenchReport, elapsedMs: number): string {
  const lines = [`== ${name}: ${report.title} (${(elapsedMs / 1000).toFixed(1)} s)`];
  for (const line of report.scale) lines.push(`   ${line}`);
  for (const table of report.tables) {
    lines.push('', table.title, renderTable(table.columns, table.rows));
  }
  if (report.notes.length > 0) lines.push('', ...report.notes.map((n) => `* ${n}`));
  return `${lines.join('\n')}\n`;
}

/** Writes `<dir>/<name>.json` with the report, the machine and the run's mode. */
export function writeReport(
  dir: string,
  name: string,
  report: BenchReport,
  meta: { quick: boolean; elapsedMs: number },
): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  const body = { name, at: new Date().toISOString(), machine: machineInfo(), ...meta, ...report };
  writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`);
  return path;
}
