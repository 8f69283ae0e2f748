// Issue 29: a registers-only daemon (`shortwatch start`, spawned as a user runs it) served three hostile
// files, each small on the wire: a workbook whose zip end record hides a 1.5 GB entry from a walk of "total
// entries", an ODS repeating one row into 10 M cells, and a CSV of one 25 MiB line. While it reads them
// again and again, /healthz is asked every 250 ms, each request given 1 s; the daemon's resident memory is
// sampled alongside. Each source must be "not read" with its reason and a notice, and the good files served
// next must be read.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/ops/status.js';
import { longLineCsv, patchedZipBomb, repeatedOds } from '../helpers/hostile-registers.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import {
  type DaemonProcess,
  freePort,
  metricValue,
  parseMetrics,
  runShortwatch,
  type Stack,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
} from './harness.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

const MB = 1024 * 1024;
const RSS_CEILING = 700 * MB;

const SOURCES = [
  {
    name: 'cbi',
    kind: 'ie-cbi',
    path: '/cbi.xlsx',
    hostile: patchedZipBomb,
    reason: /^unparseable: the zip end record counts its entries twice, differently$/,
    good: 'shared:ireland/table-of-significant-net-short-positions-in-shares.xlsx',
  },
  {
    name: 'fi',
    kind: 'se-fi-current',
    path: '/fi.ods',
    hostile: () => repeatedOds(),
    reason: /^too-large: the file holds more than 2000000 cells$/,
    good: 'shared:sweden/AktuellaPositioner.ods',
  },
  {
    name: 'afm',
    kind: 'afm-current',
    path: '/afm.csv',
    hostile: () => longLineCsv(),
    reason: /^too-large: a line is longer than 65536 bytes$/,
    good: 'shared:netherlands/nettoshortpositiesactueel.csv',
  },
] as const;

let stack: Stack;
let server: RegisterServer;
let daemon: DaemonProcess | undefined;
let base: string;

/**
 * Watches a daemon from outside: /healthz every 250 ms with a 1 s limit, and its resident memory, until
 * stopped. A parse on the event loop (what this guards against) misses every probe for as long as it runs,
 * seconds on end and again at each read; a machine busy with the rest of the suite delays a probe here and
 * there, the test's own process included. So what is judged is the longest run of probes in a row without an
 * answer, and the share of misses, beside every miss for the message.
 */
function watchDaemon(pid: number) {
  const failures: string[] = [];
  let answered = 0;
  let missedInARow = 0;
  let longestMissRun = 0;
  let maxRss = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const asked = Date.now();
      let ok = false;
      try {
        const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
        await response.text();
        ok = response.status === 200;
        if (!ok) failures.push(`HTTP ${response.status}`);
      } catch (error) {
        failures.push(`no answer within 1 s (${error instanceof Error ? error.name : String(error)})`);
      }
      if (ok) answered++;
      missedInARow = ok ? 0 : missedInARow + 1;
      longestMissRun = Math.max(longestMissRun, missedInARow);
      maxRss = Math.max(maxRss, rssOf(pid));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 250 - (Date.now() - asked))));
    }
  })();
  return {
    stats: () => ({ failures: [...failures], answered, longestMissRun, maxRss }),
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Resident memory of a process (threads included) from /proc, in bytes. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024;
}

const LOOP_DELAY_METRIC = 'shortwatch_event_loop_delay_max_seconds';

/** The daemon's `shortwatch_event_loop_delay_max_seconds`, from its /metrics. */
async function eventLoopDelayMax(): Promise<number> {
  const { samples } = parseMetrics(await (await fetch(`${base}/metrics`)).text());
  if (!samples.some((sample) => sample.name === LOOP_DELAY_METRIC)) {
    throw new Error(`no ${LOOP_DELAY_METRIC} in /metrics`);
  }
  return metricValue(samples, LOOP_DELAY_METRIC);
}

async function report(): Promise<StatusReport> {
  const run = await runShortwatch(['-c', stack.configPath, 'status', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as StatusReport;
}

beforeAll(async () => {
  server = await startRegisterServer();
  for (const source of SOURCES) server.serve(source.path, source.hostile());
  stack = await startStack({ issuers: 1, channels: ['slack'] });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  updateConfig(stack, (config) => {
    const next: Record<string, unknown> = { ...config };
    delete next.upstream;
    delete next.watchlist;
    return {
      ...next,
      sources: SOURCES.map(({ name, kind, path }) => ({ name, kind, url: server.url(path), interval: '1s' })),
      http: { port, host: '127.0.0.1' },
    };
  });
});

afterAll(async () => {
  if (daemon) await stopDaemons([daemon]);
  await stack?.cleanup();
  await server?.close();
});

describe('a registers-only daemon served hostile register files', () => {
  it('stays healthy and small, refuses each with its reason, then reads the good files', async () => {
    daemon = await spawnDaemon(stack, 'start');
    const pid = daemon.child.pid;
    if (pid === undefined) throw new Error('no daemon pid');
    const watch = watchDaemon(pid);
    try {
      // Every hostile file fetched at least three times: read, refused, and asked again.
      await waitFor(
        'each hostile file fetched three times',
        () => SOURCES.every((source) => server.hits(source.path).all >= 3),
        120_000,
        250,
      );
      const refused = await report();
      for (const source of SOURCES) {
        const status = refused.sources.find((s) => s.name === source.name);
        // Refused for longer than three intervals, a source is also stale: still "not read", with the reason.
        expect(['not-read', 'stale'], source.name).toContain(status?.state);
        expect(status?.reason ?? '', source.name).toMatch(source.reason);
        expect(refused.notices.map((n) => n.key)).toContain(`source-not-read-${source.name}`);
      }

      for (const source of SOURCES) server.serve(source.path, registerBytes(source.good));
      await waitFor(
        'every source read',
        async () => (await report()).sources.every((s) => s.state === 'read'),
        120_000,
        500,
      );
    } finally {
      await watch.stop();
    }
    const { failures, answered, longestMissRun, maxRss } = watch.stats();
    // The daemon's own measure of its event loop (node:perf_hooks, since it started): a parse, a large
    // JSON.parse or a regular expression on the loop shows here as long as it ran, whatever the machine
    // does; a machine short of CPU delays the probes below but adds little here.
    const loopDelayS = await eventLoopDelayMax();
    console.info(
      `registers-hostile: event loop delay max ${loopDelayS.toFixed(3)} s; probes answered ${answered}, missed ${failures.length}, longest run missed ${longestMissRun}; max RSS ${Math.round(maxRss / MB)} MB`,
    );
    expect(loopDelayS).toBeGreaterThan(0);
    // Alone and beside a CPU hog the loop's worst delay was 0.06-0.08 s; with two suite runs side by side on
    // the 2 cores (load average 15) it reached 1.10 s with no parse on it. A parse held on the loop shows for
    // as long as it runs, at each of the many reads of the three files: 3 s tells the two apart.
    expect(loopDelayS, 'the event loop was held 3 s or more').toBeLessThan(3);
    // Alone, the daemon answers every probe within 1 s. Beside the suite's Chromium and daemons on 2 cores it
    // was seen to miss up to 5 in a row (about 6 s) while its loop was never held a second (above): the
    // machine's, not a parse's, which would miss every probe for as long as it runs, at each read of the
    // three files. So: never 8 in a row (about 10 s), and at most one probe in five missed at all.
    expect(longestMissRun, failures.join('; ')).toBeLessThan(8);
    expect(failures.length, failures.join('; ')).toBeLessThanOrEqual(answered / 5);
    expect(answered).toBeGreaterThan(10);
    expect(maxRss).toBeGreaterThan(0);
    expect(maxRss).toBeLessThan(RSS_CEILING);
  }, 300_000);
});
