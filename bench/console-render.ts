import { historyTable } from '../src/cli/position-rows.js';
import { renderTable } from '../src/cli/table.js';
import { layout } from '../src/console/layout.js';
import { type IssuerData, renderIssuer } from '../src/console/pages/issuer.js';
import { holderKey } from '../src/positions/index.js';
import type { PositionEvent, Snapshot } from '../src/positions/types.js';
import { HOLDER_NAMES } from '../src/sandbox/names.js';
import { Random } from '../src/sandbox/prng.js';
import type { IssuerPosition } from '../src/upstream/schemas.js';
import type { Benchmark, BenchOptions, BenchReport } from './lib/report.js';
import { formatSpread, spread } from './lib/stats.js';

const HOLDERS = 50;
const DAYS = 365;
/** A holder files a new figure every this many days on average. */
const FILING_EVERY_DAYS = 5;
const EVENTS_KEPT = 200;
const NOW = Date.parse('2026-01-06T12:00:00Z');
const TARGET_MS = 50;

const round2 = (v: number) => Math.round(v * 100) / 100;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One issuer with 50 holders and a year of filings: the `status=all` rows, the event log, the snapshot. */
function fixture(seed: number): { data: IssuerData; history: IssuerPosition[] } {
  const rng = new Random(seed);
  const names = rng.sample(HOLDER_NAMES, HOLDERS);
  const history: IssuerPosition[] = [];
  const events: PositionEvent[] = [];
  const positions: Snapshot['positions'] = {};
  for (const name of names) {
    let value = 0.5 + rng.next() * 2;
    let previous: { value: number; date: string } | null = null;
    for (let d = DAYS; d >= 0; d -= rng.int(1, FILING_EVERY_DAYS * 2 - 1)) {
      value = round2(Math.max(0.5, Math.min(4, value + (rng.next() - 0.5) * 0.4)));
      const date = day(NOW - d * 86_400_000);
      history.push({ position_holder: name, value, date });
      const current = { value, date };
      events.push({
        id: `${name}-${date}`,
        kind: previous === null ? 'opened' : value > previous.value ? 'increased' : 'decreased',
        issuer: { id: 'BENCH-1', name: 'Bench Industries plc' },
        holderKey: holderKey(name),
        holder: name,
        previous,
        current,
        delta: round2(value - (previous?.value ?? 0)),
        thresholdsCrossed: [],
        issuerTotal: { before: 0, after: 0 },
        detectedAt: `${date}T18:00:00.000Z`,
      });
      previous = current;
    }
    positions[holderKey(name)] = { holder: name, value, date: previous?.date ?? day(NOW) };
  }
  events.sort((a, b) => b.detectedAt.localeCompare(a.detectedAt));
  const snapshot: Snapshot = {
    issuerId: 'BENCH-1',
    issuerName: 'Bench Industries plc',
    positions,
    lastUpdated: null,
    polledAt: new Date(NOW).toISOString(),
  };
  const data: IssuerData = {
    id: 'BENCH-1',
    name: 'Bench Industries plc',
    snapshot,
    snapshotProblem: null,
    events: events.slice(0, EVENTS_KEPT),
    history: null,
    dayLeft: 900,
    nowMs: NOW,
  };
  return { data, history };
}

/** The whole issuer page as the console sends it (layout included); no Redis read. */
function renderPage(data: IssuerData): string {
  return layout({ title: data.name, section: '/issuers' }, renderIssuer(data, 'csrf-token')).value;
}

function time(run: () => string, repeats: number): { ms: number[]; bytes: number } {
  let bytes = run().length;
  const ms: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    bytes = run().length;
    ms.push(performance.now() - t0);
  }
  return { ms, bytes };
}

/** Server-side render time of the console's issuer page at 50 holders and a year of history. */
export const consoleRender: Benchmark = {
  name: 'console-render',
  summary: 'issuer page render time (50 holders, a year of history) beside the CLI text of the same rows',
  async run(options: BenchOptions): Promise<BenchReport> {
    const repeats = options.quick ? 10 : 60;
    const { data, history } = fixture(42);
    const withHistory = { ...data, history };
    // Warm-up, so the JIT has settled before timing.
    for (let i = 0; i < 5; i++) renderPage(withHistory);
    const baseline = time(
      () => renderTable(['HOLDER', 'VALUE', 'DATE'], historyTable(history).rows),
      repeats,
    );
    const logOnly = time(() => renderPage(data), repeats);
    const full = time(() => renderPage(withHistory), repeats);
    options.progress(`console-render: ${repeats} runs of each`);
    const row = (name: string, r: { ms: number[]; bytes: number }) => {
      const s = spread(r.ms);
      return [name, formatSpread(s, 2), Math.round(r.bytes / 1024), s.median < TARGET_MS ? 'yes' : 'NO'];
    };
    return {
      title: 'console issuer page render',
      scale: [
        `${HOLDERS} holders, ${DAYS} days; a filing every ~${FILING_EVERY_DAYS} days each: ${history.length} status=all rows, ${data.events.length} logged events (poll.eventsKept).`,
        `${repeats} timed renders of each after a warm-up; one process; render only (the Redis reads are a few round trips).`,
      ],
      tables: [
        {
          title: 'Median ms per render (range)',
          columns: ['what', 'ms', 'KiB', `under ${TARGET_MS} ms`],
          rows: [
            row('baseline: CLI `positions --all` table of the same rows', baseline),
            row('issuer page from the event log and snapshot', logOnly),
            row('issuer page with the status=all history', full),
          ],
        },
      ],
      notes: [
        `The page holds one SVG step line per holder (${HOLDERS}), the legend, the holders table and the 20 latest changes.`,
        `Target: under ${TARGET_MS} ms server-side on this machine; the baseline is the plain-text table the CLI prints for the same history.`,
      ],
      data: {
        holders: HOLDERS,
        days: DAYS,
        rows: history.length,
        events: data.events.length,
        repeats,
        baseline: spread(baseline.ms),
        logOnly: spread(logOnly.ms),
        full: spread(full.ms),
        bytes: { baseline: baseline.bytes, logOnly: logOnly.bytes, full: full.bytes },
      },
    };
  },
};
