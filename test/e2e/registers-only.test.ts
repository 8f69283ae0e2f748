// A registers-only deployment: a config with `sources` and no `upstream`, run as a user runs it
// (`shortwatch check`, `start`, `status` spawned as processes), against a local stand-in of the FCA's site
// and the Slack stand-in. The stack's sandbox is started by the harness but named by no config: it must
// see no request, and Redis must hold no key of the API's (budget ledger, access, sweep). The desk's filter
// names a register issuer by name; the issuer list an earlier config with an upstream saved does not
// list it, and without an upstream it must not be judged by that list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusReport } from '../../src/ops/status.js';
import { IssuerDirectory } from '../../src/state/directory.js';
import { keyRoot } from '../../src/state/keys.js';
import { registerBytes } from '../helpers/register-fixtures.js';
import {
  type DaemonProcess,
  freePort,
  httpGet,
  runShortwatch,
  type Stack,
  slackText,
  spawnDaemon,
  startStack,
  stopDaemons,
  updateConfig,
  waitFor,
  waitForLog,
} from './harness.js';
import { ANSP_FIXTURE } from './register-changes.js';
import { type RegisterServer, startRegisterServer } from './register-server.js';

const PATH = '/aggregated-current-net-short-positions.csv';
/** abrdn's aggregate moved 6.12% → 6.45% (and its date): one issuer changed, nothing else. */
const ABRDN_RAISED = registerBytes(ANSP_FIXTURE)
  .toString('utf8')
  .replace('GB00BF8Q6K64,6.12,14/09/2026', 'GB00BF8Q6K64,6.45,15/09/2026');

let stack: Stack;
let server: RegisterServer;
let daemon: DaemonProcess | undefined;
let base: string;

/**
 * The stack's config without `upstream` and `watchlist`: one register source, the HTTP port, and the desk
 * (Slack) filtered to abrdn by its name in the register.
 */
function registersOnly(config: Record<string, unknown>, port: number): Record<string, unknown> {
  const next: Record<string, unknown> = { ...config };
  delete next.upstream;
  delete next.watchlist;
  const channels = Array.isArray(config.channels) ? config.channels : [];
  return {
    ...next,
    channels: channels.map((channel: Record<string, unknown>) => ({
      ...channel,
      filter: { issuers: ['ABRDN PLC'] },
    })),
    // A read a second: three intervals without one make the source stale, and 300 ms (0.9 s) was within
    // what a busy machine can keep a spawned daemon from reading.
    sources: [{ name: 'fca', kind: 'uk-ansp-current', url: server.url(PATH), interval: '1s' }],
    http: { port, host: '127.0.0.1' },
  };
}

async function status(...args: string[]): Promise<string> {
  const run = await runShortwatch(['-c', stack.configPath, 'status', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

/** The budget ledgers (of any credential) whose spenders name this deployment (SCAN, never KEYS). */
async function spentLedgers(): Promise<string[]> {
  const { redis } = stack.redis;
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', '{shortwatch-upstream:*}:spenders', 'COUNT', 500);
    cursor = next;
    for (const key of keys)
      if ((await redis.hkeys(key)).some((field) => field.startsWith(`${stack.prefix} `))) found.push(key);
  } while (cursor !== '0');
  return found;
}

/** Every Slack post so far, as text. */
const posts = () => stack.slack.delivered().map((post) => slackText(post.payload));

beforeAll(async () => {
  server = await startRegisterServer();
  server.serve(PATH, registerBytes(ANSP_FIXTURE));
  stack = await startStack({ issuers: 1, channels: ['slack'] });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  updateConfig(stack, (config) => registersOnly(config, port));
  // As an earlier config with an upstream left it: the sandbox's issuer list, without abrdn.
  const directory = new IssuerDirectory(stack.redis.redis, keyRoot(stack.prefix));
  await directory.save(stack.sandbox.scenario.issuers(), null, new Date());
});

afterAll(async () => {
  if (daemon) await stopDaemons([daemon]);
  await stack?.cleanup();
  await server?.close();
});

describe('a deployment with sources and no upstream', () => {
  it('passes `shortwatch check` with no upstream line failing', async () => {
    const check = await runShortwatch(['-c', stack.configPath, 'check']);
    expect(check.code, `${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('ok    upstream: no upstream API configured: registers only');
    expect(check.stdout).toMatch(/^ok {4}config .*: 1 register source, 1 channels$/m);
    expect(check.stdout).not.toMatch(/^(FAIL|skip) .*upstream/im);
    expect(check.stderr).toBe('');
    // One spawned `check`: about 1.5 s alone, 25 s seen on 2 cores with two CPU hogs beside it.
  }, 90_000);

  it('reads the register, tells a change on Slack once, and never asks an upstream', async () => {
    daemon = await spawnDaemon(stack, 'start');
    await waitFor('the first read (a silent baseline)', () => server.hits(PATH).all >= 2);
    const first = JSON.parse(await status('--json')) as StatusReport;
    expect(first.sources.map((s) => [s.name, s.state])).toEqual([['fca', 'read']]);
    expect(stack.slack.delivered()).toHaveLength(0);

    server.serve(PATH, ABRDN_RAISED);
    await waitFor('the change on Slack', () => posts().some((text) => text.includes('GB00BF8Q6K64')));
    // Later reads find the same file (304s): nothing is told twice.
    const reads = server.hits(PATH).notModified;
    await waitFor('three more reads', () => server.hits(PATH).notModified >= reads + 3);
    expect(posts().filter((text) => text.includes('GB00BF8Q6K64'))).toHaveLength(1);
    expect(posts()).toHaveLength(1);
    // The register's date (2026-09-15) is over a day before the read: the message says when it was first seen.
    expect(posts()[0]).toMatch(
      /Aggregate of positions from 0\.2% raised 6\.12% → 6\.45% \([+]0\.33 pp\) · disclosed for 2026-09-15, first seen [^:]+:\d\d UTC/,
    );
    expect(posts()[0]).toMatch(/from register fca/);

    // Nothing of the API: no request, no scheduler, no ledger, no access record, no sweep.
    expect(stack.sandbox.stats.count()).toBe(0);
    expect(await spentLedgers()).toEqual([]);
    const apiKeys = [stack.keys.ledger, stack.keys.access, stack.keys.sweep];
    expect(await Promise.all(apiKeys.map((key) => stack.redis.redis.exists(key)))).toEqual([0, 0, 0]);
  }, 60_000);

  it('shows the source read and no upstream in `status`, and is ready', async () => {
    const report = JSON.parse(await status('--json')) as StatusReport;
    expect(report.upstream).toBeNull();
    expect(report.budget).toBeNull();
    expect(report.schedulers.map((s) => s.id)).not.toContain('sweep');
    expect(report.sources).toEqual([expect.objectContaining({ name: 'fca', state: 'read' })]);
    const text = await status();
    expect(text).toContain('Upstream: no upstream API configured (registers only');
    expect(text).not.toMatch(/Upstream access|Budget:|POLLING STOPPED/);
    expect(text).toMatch(/^fca +uk-ansp-current +read /m);

    expect(await httpGet(`${base}/healthz`)).toEqual({ status: 200, body: 'ok\n' });
    // Waited for, as the source's next read may come late on a busy machine (stale is not ready).
    const ready = await waitFor('/readyz ready', async () => {
      const answer = await httpGet(`${base}/readyz`);
      return answer.status === 200 ? answer : undefined;
    });
    expect(JSON.parse(ready?.body ?? '')).toMatchObject({ ready: true, reasons: [] });
    // Two spawned `status` processes: about 2.5 s alone, 29 s seen on 2 cores with two CPU hogs beside it.
  }, 90_000);

  it("shows a register issuer's aggregate in `positions`, with no request to an upstream", async () => {
    const run = await runShortwatch(['-c', stack.configPath, 'positions', 'abrdn']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ABRDN PLC (GB00BF8Q6K64) in register fca');
    expect(run.stdout).toMatch(
      /0 holders, named 0\.00%; aggregate 6\.45% \(positions from 0\.2%\) on 2026-09-15/,
    );
    const unknown = await runShortwatch(['-c', stack.configPath, 'positions', 'no such plc']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'no register source\'s last read lists a watched issuer matching "no such plc"',
    );
    expect(stack.sandbox.stats.count()).toBe(0);
    // Two spawned CLI processes: about 3.5 s alone, and each several times that on 2 cores busy with
    // other work (30 s ran out once beside a full suite).
  }, 90_000);

  it('refuses a reload that adds an upstream, naming the key, and keeps running', async () => {
    if (!daemon) throw new Error('no daemon');
    const before = daemon.stderr().split('\n').length - 1;
    updateConfig(stack, (config) => ({
      ...config,
      upstream: { baseUrl: stack.sandbox.url, apiKey: 'sandbox-key' },
    }));
    daemon.kill('SIGHUP');
    const line = await waitForLog(daemon, 'config reload rejected', 20_000, before);
    expect(line.error).toMatch(/upstream: cannot be added without a restart/);
    await waitFor('another read', () => server.hits(PATH).notModified > 0);
    const ready = await httpGet(`${base}/readyz`);
    expect(ready.status, ready.body).toBe(200);
    expect(stack.sandbox.stats.count()).toBe(0);
  });
});
