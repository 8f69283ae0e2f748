import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { probeRedis } from '../../src/demo/redis-probe.js';
import { findOnPath, freePort } from '../../src/demo/redis-server-child.js';
import { ledgerRoot } from '../../src/state/keys.js';
import { type DaemonProcess, spawnShortwatch, waitFor } from '../e2e/harness.js';
import { countKeysUnder } from '../helpers/count-keys.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';

const ALERT = /^\d\d:\d\d:\d\d (slack|email) +\S/m;
const DIGEST = /^\d\d:\d\d:\d\d digest +Short positions digest/m;
const PREFIX = /keys under prefix (shortwatch-demo-[0-9a-f]{8})/;
const SANDBOX = /sandbox at (http:\/\/\S+): /;

function files(out: string, dir: string, extension: string): string[] {
  return readdirSync(join(out, dir)).filter((name) => name.endsWith(extension));
}

describe('shortwatch demo, run as a user runs it', () => {
  let demo: DaemonProcess | undefined;
  const outs: string[] = [];
  const newOut = () => {
    const out = mkdtempSync(join(tmpdir(), 'shortwatch-demo-out-'));
    outs.push(out);
    return out;
  };

  afterEach(() => {
    demo?.kill('SIGKILL');
    demo = undefined;
    for (const out of outs.splice(0)) rmSync(out, { recursive: true, force: true });
  });

  it('prints alerts within seconds and a digest, writes what the channels got, and leaves no keys', async () => {
    const out = newOut();
    // The demo's digest runs every 30 s: the first one is printed within about 45 s of the start. The run
    // is stopped by `--duration` only if that never comes (and then fails below).
    const running = spawnShortwatch(['demo', '--duration', '100s', '--out', out], {
      REDIS_URL: TEST_REDIS_URL,
    });
    demo = running;
    const prefix = (await waitFor('the banner', () => PREFIX.exec(running.stdout())?.[1], 30_000)) ?? '';
    // The budget's ledger of the demo's own sandbox (config/demo.yaml's key): no other run counts in it.
    const ledger = ledgerRoot(accessFingerprint(SANDBOX.exec(running.stdout())?.[1] ?? '', 'sandbox-key'));
    await waitFor('the first alert line', () => ALERT.test(running.stdout()), 45_000, 250);
    // Well before the end: the demo is still running, and its keys are in Redis under the printed prefix.
    expect(running.child.exitCode).toBeNull();
    const redis = new Redis(TEST_REDIS_URL);
    try {
      expect(await countKeysUnder(redis, prefix)).toBeGreaterThan(0);
      expect(await countKeysUnder(redis, ledger)).toBeGreaterThan(0);
      // Ctrl-C once a digest is printed (and its e-mail written): the stop tidies the keys up as the end
      // of `--duration` does (one teardown, src/demo/start-demo.ts).
      await waitFor('the first digest', () => DIGEST.test(running.stdout()), 90_000, 250);
      await waitFor('the digest e-mail written', () => files(out, 'digest', '.html').length > 0, 10_000);
      running.kill('SIGINT');
      expect(await running.exited).toBe(0);
      expect(await countKeysUnder(redis, prefix)).toBe(0);
      expect(await countKeysUnder(redis, ledger)).toBe(0);
    } finally {
      redis.disconnect();
    }
    const stdout = running.stdout();
    expect(stdout).toMatch(DIGEST);
    expect(stdout).toMatch(/Removed \d+ keys under shortwatch-demo-/);
    expect(running.stderr()).not.toMatch(/shortwatch demo:|ERROR|FATAL/);
    expect(files(out, 'slack', '.json').length).toBeGreaterThan(0);
    expect(files(out, 'email', '.eml').length).toBeGreaterThan(0);
    expect(files(out, 'email', '.html').length).toBe(files(out, 'email', '.eml').length);
    expect(files(out, 'digest', '.eml').length).toBeGreaterThan(0);
    expect(files(out, 'digest', '.html').length).toBeGreaterThan(0);
  }, 150_000);

  it.skipIf(!findOnPath('redis-server', process.env.PATH))(
    'starts its own redis-server when nothing answers, and Ctrl-C stops it all cleanly',
    async () => {
      const dead = await freePort();
      const out = newOut();
      const running = spawnShortwatch(['demo', '--duration', '60s', '--out', out], {
        REDIS_URL: `redis://127.0.0.1:${dead}`,
      });
      demo = running;
      const url = await waitFor(
        'the redis-server it started',
        () =>
          /started \S*redis-server \(pid \d+\) on (redis:\/\/127\.0\.0\.1:\d+)/.exec(running.stdout())?.[1],
        30_000,
      );
      await waitFor('the first alert line', () => ALERT.test(running.stdout()), 45_000, 250);
      expect(await probeRedis(url ?? '')).toBeUndefined();
      running.kill('SIGINT');
      expect(await running.exited, `${running.stdout()}\n${running.stderr()}`).toBe(0);
      expect(running.stdout()).toMatch(/Stopping \(SIGINT\)[\s\S]*Stopped the demo redis-server\./);
      expect(await probeRedis(url ?? '', 500)).toBeDefined();
      expect(files(out, 'slack', '.json').length).toBeGreaterThan(0);
    },
    90_000,
  );

  it('exits 1 and says how to get Redis when there is none and no redis-server to start', async () => {
    const dead = await freePort();
    const empty = newOut();
    const result = spawnShortwatch(['demo', '--duration', '5s', '--out', join(empty, 'out')], {
      REDIS_URL: `redis://127.0.0.1:${dead}`,
      PATH: empty,
    });
    demo = result;
    expect(await result.exited).toBe(1);
    expect(result.stderr()).toContain('docker compose up -d redis');
    expect(result.stdout()).not.toMatch(PREFIX);
  }, 30_000);
});
