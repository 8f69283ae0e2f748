import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afmCurrent, afmHistory } from '../src/sources/parsers/afm.js';
import { fmaHistory } from '../src/sources/parsers/austria.js';
import { finFsaCurrent } from '../src/sources/parsers/finland.js';
import { amf } from '../src/sources/parsers/france.js';
import { banzCurrent, banzHistory } from '../src/sources/parsers/germany.js';
import {
  cbi,
  cnmv,
  consob,
  fsmaCurrent,
  fsmaHistory,
  ukLegacyHolders,
} from '../src/sources/parsers/named-registers.js';
import { norwaySsrCsv, norwaySsrJson } from '../src/sources/parsers/norway.js';
import { knfHtml, knfJsonHistory } from '../src/sources/parsers/poland.js';
import { swedenAggregate, swedenCurrent } from '../src/sources/parsers/sweden.js';
import { ukAnspCurrent, ukAnspHistoric, ukReportableShares } from '../src/sources/parsers/uk-ansp.js';
import type { RegisterReader } from '../src/sources/reader.js';
import { apiBodies, apiWork, busyNextRead, daemonDiff, firstRead } from './lib/register-work.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { fixed, spread } from './lib/stats.js';

// The regulators' files from shared/ beside the clone; the built UK ANSP files from test/fixtures.
const SHARED = fileURLToPath(new URL('../test/fixtures/registers/', import.meta.url));
const LOCAL = fileURLToPath(new URL('../test/fixtures/registers/', import.meta.url));

/** One fixture's figures in one run (ms). */
interface StageRun {
  decodeMs: number;
  parseMs: number;
  /** The aggregate diff and its alerts, then every issuer's named holders (`diffRegister`). */
  aggregateMs: number;
  holderMs: number;
  /** The API source's work for the same positions: JSON, schema and diff per issuer. */
  apiMs: number;
  issuers: number;
  positions: number;
  events: number;
  apiEvents: number;
}

/** One fixture, timed in its stages against a busy next read of it (lib/register-work.ts). */
interface Stage {
  name: string;
  bytes: Buffer;
  run(): StageRun;
}

function stage<D>(name: string, reader: RegisterReader<D>, file: string): Stage {
  const bytes = readFileSync(file);
  // The next read and the API's bodies are built once, outside the timings.
  const first = firstRead(reader.parse(reader.decode(bytes)));
  const next = busyNextRead(first.snapshot);
  const bodies = apiBodies(first, next);
  return {
    name,
    bytes,
    run() {
      const t0 = performance.now();
      const decoded = reader.decode(bytes);
      const t1 = performance.now();
      const snapshot = reader.parse(decoded);
      const t2 = performance.now();
      const diff = daemonDiff(first, next);
      const api = apiWork(first, bodies);
      return {
        decodeMs: t1 - t0,
        parseMs: t2 - t1,
        aggregateMs: diff.aggregateMs,
        holderMs: diff.holderMs,
        apiMs: api.ms,
        issuers: snapshot.issuers.length,
        positions: snapshot.issuers.reduce((sum, issuer) => sum + issuer.positions.length, 0),
        events: diff.events,
        apiEvents: api.events,
      };
    },
  };
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
    stage('FMA history (CSV)', fmaHistory, `${LOCAL}austria/fma_historical.trimmed.csv`),
    stage('KNF current (HTML page)', knfHtml, `${LOCAL}poland/shortsellings-current.html`),
    stage('KNF history (JSON, built)', knfJsonHistory, `${LOCAL}poland/rss_pub-RssHTable.json`),
    stage('Bundesanzeiger open (built CSV)', banzCurrent, `${LOCAL}germany/leerverkaeufe_open.csv`),
    stage('Bundesanzeiger history (built CSV)', banzHistory, `${LOCAL}germany/leerverkaeufe_historical.csv`),
    stage('AMF (built CSV)', amf, `${LOCAL}france/export_od_vad_20261001111500_20261001123000.csv`),
    stage('FIN-FSA (built JSON)', finFsaCurrent, `${LOCAL}finland/current.json`),
  ];
}

async function run({ quick, progress }: BenchOptions): Promise<BenchReport> {
  const runs = quick ? 3 : 10;
  const rows: (string | number)[][] = [];
  const data: Record<string, unknown>[] = [];
  for (const s of stages()) {
    progress(s.name);
    const results = Array.from({ length: runs }, () => s.run());
    const median = (pick: (r: StageRun) => number) => spread(results.map(pick)).median;
    const figures = {
      decode: median((r) => r.decodeMs),
      parse: median((r) => r.parseMs),
      aggregateDiff: median((r) => r.aggregateMs),
      holderDiff: median((r) => r.holderMs),
      total: spread(results.map((r) => r.decodeMs + r.parseMs + r.aggregateMs + r.holderMs)),
      api: spread(results.map((r) => r.apiMs)),
    };
    const first = results[0];
    rows.push([
      s.name,
      Math.round(s.bytes.length / 1024),
      first?.issuers ?? 0,
      first?.positions ?? 0,
      first?.events ?? 0,
      fixed(figures.decode),
      fixed(figures.parse, 2),
      fixed(figures.aggregateDiff + figures.holderDiff, 2),
      `${fixed(figures.total.median)} (${fixed(figures.total.min)}–${fixed(figures.total.max)})`,
      `${fixed(figures.api.median, 2)} (${first?.apiEvents ?? 0} ev.)`,
    ]);
    data.push({ name: s.name, bytes: s.bytes.length, ...first, ...figures });
  }
  return {
    title: "register files: decode + parse + the daemon's diff of the whole file, beside the API",
    scale: [`${runs} runs per fixture; medians in ms; the first run includes warm-up`],
    tables: [
      {
        title: 'per fixture (ms)',
        columns: [
          'fixture',
          'KiB',
          'issuers',
          'positions',
          'events',
          'decode',
          'parse',
          'diff',
          'total (min–max)',
          'API, same positions',
        ],
        rows,
      },
    ],
    notes: [
      'Goal: under 1 s per whole file (total). Spreadsheets dominate: SheetJS inflates and walks the zip XML (Sweden pads 700,000 empty rows) or the BIFF stream.',
      "diff: the daemon's work on a busy next read (first issuer gone; elsewhere the largest position +0.1 pp, the smallest of two or more gone, the aggregate +0.3 pp, the newest past value revised): diffAggregates with its alerts, then diffRegister over every issuer (the API's diffPositions per issuer), against the snapshots the first read stored. events: what that read tells.",
      "API, same positions: the API source's work for the same next read, in the same run: per issuer one positions body (as `GET /issuers/{id}/positions` returns it) through JSON.parse, the upstream schema and diffPositions; no HTTP, which costs one request per issuer of the 1,000 a day. It has no aggregates, so aggregate registers tell nothing there.",
    ],
    data,
  };
}

/** The register-file benchmark. */
export const registers: Benchmark = {
  name: 'registers',
  summary:
    "decode + parse + the daemon's diff per register fixture, beside the API's work for the same positions",
  run,
};
