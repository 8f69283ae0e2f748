import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { aggregateEventsSchema } from '../src/config/schema/sources.js';
import { diffAggregates } from '../src/sources/aggregate-diff.js';
import { afmCurrent, afmHistory } from '../src/sources/parsers/afm.js';
import {
  cbi,
  cnmv,
  consob,
  fsmaCurrent,
  fsmaHistory,
  ukLegacyHolders,
} from '../src/sources/parsers/named-registers.js';
import { norwaySsrCsv, norwaySsrJson } from '../src/sources/parsers/norway.js';
import { swedenAggregate, swedenCurrent } from '../src/sources/parsers/sweden.js';
import { ukAnspCurrent, ukAnspHistoric, ukReportableShares } from '../src/sources/parsers/uk-ansp.js';
import type { RegisterReader } from '../src/sources/reader.js';
import type { RegisterSnapshot } from '../src/sources/types.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, spread } from './lib/stats.js';

// The regulators' files from shared/ beside the clone; the built UK ANSP files from test/fixtures.
const SHARED = fileURLToPath(new URL('../test/fixtures/registers/', import.meta.url));
const LOCAL = fileURLToPath(new URL('../test/fixtures/registers/', import.meta.url));

/** One fixture, timed in its stages: decode, parse, then the aggregate diff against a changed copy. */
interface Stage {
  name: string;
  bytes: Buffer;
  run(): { decodeMs: number; parseMs: number; diffMs: number; issuers: number; events: number };
}

const config = aggregateEventsSchema.parse({});

function stage<D>(name: string, reader: RegisterReader<D>, file: string): Stage {
  const bytes = readFileSync(file);
  return {
    name,
    bytes,
    run() {
      const t0 = performance.now();
      const decoded = reader.decode(bytes);
      const t1 = performance.now();
      const snapshot = reader.parse(decoded);
      const t2 = performance.now();
      const events = diffAggregates(snapshot, moved(snapshot), config).length;
      const t3 = performance.now();
      return {
        decodeMs: t1 - t0,
        parseMs: t2 - t1,
        diffMs: t3 - t2,
        issuers: snapshot.issuers.length,
        events,
      };
    },
  };
}

/** The snapshot with every aggregate 0.3 pp higher and the first issuer gone: a busy next read. */
function moved(snapshot: RegisterSnapshot): RegisterSnapshot {
  const issuers = snapshot.issuers
    .slice(1)
    .map((issuer) =>
      issuer.aggregate
        ? { ...issuer, aggregate: { ...issuer.aggregate, percent: issuer.aggregate.percent + 0.3 } }
        : issuer,
    );
  return { ...snapshot, issuers };
}

function stages(): Stage[] {
  return [
    stage('AFM current (CSV, cp1252)', afmCurrent, `${SHARED}netherlands/nettoshortpositiesactueel.csv`),
    stage('AFM history (CSV, cp1252)', afmHistory, `${SHARED}netherlands/nettoshortpositieshistorie.csv`),
    stage('Norway SSR (JSON)', norwaySsrJson, `${SHARED}norway/ShortingHistory-24-08-2022.trimmed.json`),
    stage('Norway SSR (pipe CSV)', norwaySsrCsv, `${SHARED}norway/export-csv_separator-pipe_excerpt.csv`),
    stage('Sweden current (ODS)', swedenCurrent, `${SHARED}sweden/AktuellaPositioner.ods`),
    stage('Sweden aggregate (ODS)', swedenAggregate, `${SHARED}sweden/Blankningsregisteraggregat.ods`),
    stage(
      'UK ANSP current (built CSV)',
      ukAnspCurrent,
      `${LOCAL}uk/aggregated-current-net-short-positions.2026-09-15.csv`,
    ),
    stage(
      'UK ANSP historic (built CSV)',
      ukAnspHistoric,
      `${LOCAL}uk/aggregated-historic-net-short-positions.2026-09-16.csv`,
    ),
    stage(
      'UK reportable shares (built CSV)',
      ukReportableShares,
      `${LOCAL}uk/uk-reportable-shares-list.2026-09-16.csv`,
    ),
    stage(
      'UK legacy holders (XLSX)',
      ukLegacyHolders,
      `${SHARED}united-kingdom/short-positions-daily-update2.xlsx`,
    ),
    stage('CONSOB (XLSX)', consob, `${SHARED}italy/PncPubbl.xlsx`),
    stage('CNMV (XLS, BIFF8)', cnmv, `${SHARED}spain/NetShortPositions.xls`),
    stage('CBI (XLSX)', cbi, `${SHARED}ireland/table-of-significant-net-short-positions-in-shares.xlsx`),
    stage('FSMA current (CSV)', fsmaCurrent, `${SHARED}belgium/de-shortselling.csv`),
    stage('FSMA history (CSV)', fsmaHistory, `${SHARED}belgium/de-shortselling-history.csv`),
  ];
}

/** The baseline: one JSON.parse over the same bytes (as a JSON string), timed in the same run. */
function baselineMs(bytes: Buffer): number {
  const text = JSON.stringify(bytes.toString('latin1'));
  const t0 = performance.now();
  JSON.parse(text);
  return performance.now() - t0;
}

async function run({ quick, progress }: BenchOptions): Promise<BenchReport> {
  const runs = quick ? 3 : 10;
  const rows: (string | number)[][] = [];
  const data: Record<string, unknown>[] = [];
  for (const s of stages()) {
    progress(s.name);
    const results = Array.from({ length: runs }, () => s.run());
    const total = spread(results.map((r) => r.decodeMs + r.parseMs + r.diffMs));
    const base = spread(Array.from({ length: runs }, () => baselineMs(s.bytes)));
    const median = (pick: (r: (typeof results)[number]) => number) => spread(results.map(pick)).median;
    const [decode, parse, diff] = [
      median((r) => r.decodeMs),
      median((r) => r.parseMs),
      median((r) => r.diffMs),
    ];
    const first = results[0];
    rows.push([
      s.name,
      Math.round(s.bytes.length / 1024),
      first?.issuers ?? 0,
      fixed(decode),
      fixed(parse),
      fixed(diff, 2),
      `${fixed(total.median)} (${fixed(total.min)}–${fixed(total.max)})`,
      fixed(base.median, 2),
    ]);
    data.push({
      name: s.name,
      bytes: s.bytes.length,
      issuers: first?.issuers,
      events: first?.events,
      decode,
      parse,
      diff,
      total,
      baseline: base,
    });
  }
  return {
    title: 'register files: decode + parse + aggregate diff of the whole file',
    scale: [`${runs} runs per fixture; medians in ms; the first run includes warm-up`],
    tables: [
      {
        title: 'per fixture (ms)',
        columns: [
          'fixture',
          'KiB',
          'issuers',
          'decode',
          'parse',
          'diff',
          'total (min–max)',
          'JSON.parse same bytes',
        ],
        rows,
      },
    ],
    notes: [
      'Goal: under 1 s per whole file. Spreadsheets dominate: SheetJS inflates and walks the zip XML (Sweden pads 700,000 empty rows) or the BIFF stream.',
      'The baseline is one JSON.parse of the file bytes as a JSON string: a single pass over the same bytes, measured in the same run.',
      'The diff is diffAggregates against a copy with every aggregate 0.3 pp higher and one issuer gone.',
    ],
    data,
  };
}

/** The register-file benchmark. */
export const registers: Benchmark = {
  name: 'registers',
  summary: 'decode + parse + diff time per register fixture, beside a JSON.parse of the same bytes',
  run,
};
