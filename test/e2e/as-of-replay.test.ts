import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { printPositionsAsOf } from '../../src/cli/as-of.js';
import { parseConfig } from '../../src/config/load.js';
import { filterOf, loadTimeline } from '../../src/console/pages/events.js';
import { holderPage } from '../../src/console/pages/holders.js';
import { runRegisterPoll } from '../../src/jobs/registers/register-poll.js';
import { registerIssuersSeen } from '../../src/lookup/as-of.js';
import { holderKey } from '../../src/positions/index.js';
import { RegisterStore } from '../../src/state/register-store.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { DAY_MS, HOUR_MS } from '../../src/time/units.js';
import { createTestRedis, TEST_REDIS_URL, type TestRedis } from '../helpers/redis.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import { runShortwatch } from './harness.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

// Issue 34, "what did we know, and when": a week of the AFM's register replayed one file a day on a
// clock the test moves (the daemon's `now`), then asked at three times. The files: the real copy on
// Monday; Tuesday Marshall Wace raises Randstad; Thursday a late filing (Qube's Randstad position of
// 5 August, first listed eight days later); Friday a revision (Marshall Wace's 13 August value restated
// the same day's date, 0.78 → 0.74); Sunday Qube raises. What the register dates a row does not decide
// what had been seen: only when shortwatch read it.
const NL_FIXTURE = 'netherlands/nettoshortpositiesactueel.csv';
const MONDAY = Date.parse('2026-11-02T09:00:00.000Z');
const RANDSTAD = 'NL0000379121';

function withRows(...rows: string[]): Buffer {
  const text = registerBytes(NL_FIXTURE).toString('latin1');
  const [header = '', ...rest] = text.split('\n');
  const eol = header.endsWith('\r') ? '\r' : '';
  return Buffer.from([header, ...rows.map((row) => `${row}${eol}`), ...rest].join('\n'), 'latin1');
}

const MW = (value: string) =>
  `"Marshall Wace LLP";"Randstad N.V.";"${RANDSTAD}";"${value}";"2025-08-13 00:00:00"`;
const QUBE = (value: string, date: string) =>
  `"Qube Research & Technologies Limited";"Randstad N.V.";"${RANDSTAD}";"${value}";"${date} 00:00:00"`;

/** The file each day of the week, Monday first. */
const WEEK: Buffer[] = [
  withRows(),
  withRows(MW('0.78')),
  withRows(MW('0.78')),
  withRows(MW('0.78'), QUBE('0.61', '2025-08-05')),
  withRows(MW('0.74'), MW('0.78'), QUBE('0.61', '2025-08-05')),
  withRows(MW('0.74'), MW('0.78'), QUBE('0.61', '2025-08-05')),
  withRows(MW('0.74'), MW('0.78'), QUBE('0.66', '2025-08-14'), QUBE('0.61', '2025-08-05')),
];

let redis: TestRedis;
let server: RegisterServer;
let app: App;
let configPath: string;
let clock = MONDAY;
/** When each day's read happened, by the test's clock. */
const readAt: number[] = [];

beforeAll(async () => {
  redis = await createTestRedis('asof');
  server = await startRegisterServer();
  const config = {
    redis: { url: TEST_REDIS_URL, prefix: redis.prefix },
    sources: [{ name: 'afm', kind: 'afm-current', url: server.url('/afm.csv'), interval: '1h' }],
    channels: [{ name: 'console', kind: 'console' }],
    log: { level: 'warn', format: 'json' },
  };
  configPath = join(mkdtempSync(join(tmpdir(), 'shortwatch-asof-')), 'shortwatch.yaml');
  writeFileSync(configPath, stringify(config));
  app = await App.open(parseConfig(stringify(config), configPath), {
    logger: silentLogger(),
    now: () => new Date(clock),
    consoleOut: new PassThrough(),
  });
  const store = new RegisterStore(app.redis, app.ctx.prefix);
  for (const [day, file] of WEEK.entries()) {
    clock = MONDAY + day * DAY_MS;
    server.serve('/afm.csv', file);
    const result = await runRegisterPoll(app.ctx, { store }, 'afm');
    expect(result.outcome, `day ${day}`).toBe(day === 2 || day === 5 ? 'not-modified' : 'read');
    readAt.push(clock);
  }
}, 60_000);

afterAll(async () => {
  await app?.stop(2_000);
  await server?.close();
  await redis?.cleanup();
});

/** Three times to ask at: Tuesday evening, Thursday evening, Friday evening. */
const at = (day: number) => (readAt[day] ?? 0) + 10 * HOUR_MS;

async function randstadAt(atMs: number): Promise<string[]> {
  const stores = {
    snapshots: app.ctx.snapshots,
    registers: new RegisterStore(app.redis, app.ctx.prefix),
    eventLog: app.ctx.eventLog,
    eventsKept: app.settings.config.poll.eventsKept,
  };
  const [seen] = await registerIssuersSeen(stores, ['afm'], (i) => i.key === RANDSTAD, atMs);
  if (seen === undefined || !seen.seen) return ['not seen'];
  expect(seen.complete).toBe(true);
  return seen.positions.map(
    (p) => `${p.holder} ${p.value} ${p.date} seen ${new Date(p.firstSeen ?? 0).toISOString().slice(0, 10)}`,
  );
}

async function eventsAt(atMs: number): Promise<string[]> {
  const filter = filterOf(new URLSearchParams({ asOf: new Date(atMs).toISOString() }), clock);
  const entries = await loadTimeline(app, filter);
  return entries.map(
    ({ logged: { event: e } }) => `${e.holder} ${e.kind} ${e.current?.value} ${e.current?.date}`,
  );
}

describe('a replayed week, asked what had been seen by three times', () => {
  it('answers positions exactly as seen: the late filing absent before it was read, the revision after', async () => {
    expect(await randstadAt(MONDAY - HOUR_MS)).toEqual(['not seen']);
    expect(await randstadAt(at(1))).toEqual(['Marshall Wace LLP 0.78 2025-08-13 seen 2026-11-03']);
    expect(await randstadAt(at(3))).toEqual([
      'Marshall Wace LLP 0.78 2025-08-13 seen 2026-11-03',
      'Qube Research & Technologies Limited 0.61 2025-08-05 seen 2026-11-05',
    ]);
    expect(await randstadAt(at(4))).toEqual([
      'Marshall Wace LLP 0.74 2025-08-13 seen 2026-11-06',
      'Qube Research & Technologies Limited 0.61 2025-08-05 seen 2026-11-05',
    ]);
    // Now: Sunday's raise, and the revision still as first seen on Friday.
    expect(await randstadAt(clock)).toEqual([
      'Marshall Wace LLP 0.74 2025-08-13 seen 2026-11-06',
      'Qube Research & Technologies Limited 0.66 2025-08-14 seen 2026-11-08',
    ]);
  });

  it('answers events exactly as seen, on the console and the CLI', async () => {
    const tuesday = ['Marshall Wace LLP increased 0.78 2025-08-13'];
    const thursday = ['Qube Research & Technologies Limited opened 0.61 2025-08-05', ...tuesday];
    const friday = ['Marshall Wace LLP decreased 0.74 2025-08-13', ...thursday];
    expect(await eventsAt(at(1))).toEqual(tuesday);
    expect(await eventsAt(at(3))).toEqual(thursday);
    expect(await eventsAt(at(4))).toEqual(friday);
    for (const [day, expected] of [[3, thursday]] as const) {
      const run = await runShortwatch([
        '-c',
        configPath,
        'events',
        '--as-of',
        new Date(at(day)).toISOString(),
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const events = JSON.parse(run.stdout) as {
        holder: string;
        kind: string;
        current: { value: number; date: string } | null;
      }[];
      expect(events.map((e) => `${e.holder} ${e.kind} ${e.current?.value} ${e.current?.date}`)).toEqual(
        expected,
      );
    }
  }, 60_000);

  it('prints the positions of `positions --as-of` with both dates', async () => {
    const lines: string[] = [];
    await printPositionsAsOf(app, 'Randstad', at(3), (text) => lines.push(text));
    const text = lines.join('\n');
    expect(text).toMatch(
      /Randstad N\.V\. \(NL0000379121\) in register afm, as seen at 2026-11-05T19:00:00\.000Z/,
    );
    expect(text).toMatch(/Qube Research & Technologies Limited\s+0\.61%\s+2025-08-05\s+2026-11-05 09:00:00/);
    expect(text).not.toMatch(/0\.74%/);
  });

  it("shows a holder's page as of a time: the late filer absent before it was read", async () => {
    const asOf = async (day: number) => {
      const query = new URLSearchParams({ asOf: new Date(at(day)).toISOString() });
      const result = await holderPage(
        { app, csrf: '', query, form: new URLSearchParams() },
        holderKey('Qube Research & Technologies Limited'),
      );
      return result.kind === 'page' ? { status: result.status ?? 200, body: result.body.value } : undefined;
    };
    expect((await asOf(1))?.status).toBe(404);
    const thursday = await asOf(3);
    expect(thursday?.status).toBe(200);
    expect(thursday?.body).toMatch(/Randstad N\.V\.[\s\S]*0\.61%[\s\S]*2025-08-05/);
    expect(thursday?.body).not.toContain('0.66%');
  });
});
