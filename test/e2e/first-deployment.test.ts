// The README's "Using it for real", done the way a new user does it: copy config/example.yaml as it ships,
// set only the variables .env.example lists (pointing at `shortwatch sandbox` with its default world and at
// local Slack and SMTP stand-ins), then `check` and `start`. Nothing in the example is edited.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { keyRoot, stateKeys } from '../../src/state/keys.js';
import { createTestRedis, TEST_REDIS_URL, type TestRedis } from '../helpers/redis.js';
import {
  type DaemonProcess,
  freePort,
  httpGet,
  runShortwatch,
  spawnShortwatch,
  stopDaemons,
  waitFor,
} from './harness.js';

const ROOT = new URL('../..', import.meta.url);
const exampleText = readFileSync(new URL('config/example.yaml', ROOT), 'utf8');
const envExample = readFileSync(new URL('.env.example', ROOT), 'utf8');

/** Every variable .env.example lists, set (`NAME=`) or shown commented out (`# NAME=`). */
function listedVariables(text: string): Set<string> {
  return new Set([...text.matchAll(/^(?:# ?)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? ''));
}

/** Every variable the example's lines name as `${NAME}` or `${NAME:-default}`, commented lines included. */
function namedVariables(text: string): Set<string> {
  return new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)(?::-[^}]*)?\}/g)].map((m) => m[1] ?? ''));
}

/** The parent's environment without anything the config could read: the user's own values only. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const reachable = [...listedVariables(envExample), ...namedVariables(exampleText), 'SHORTWATCH_CONFIG'];
  for (const name of reachable) delete env[name];
  return env;
}

// The issuers the example's watchlist resolves to in the sandbox's default world (seed 1, 12 issuers).
const WATCHED = ['ISS-0001', 'ISS-0007', 'ISS-0010'];

describe('first deployment from config/example.yaml', () => {
  let dir: string;
  let redis: TestRedis;
  let slack: SlackCapture;
  let smtp: SmtpCapture;
  let sandbox: DaemonProcess;
  let env: Record<string, string>;
  let configFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-first-'));
    configFile = join(dir, 'shortwatch.yaml');
    copyFileSync(new URL('config/example.yaml', ROOT), configFile);
    redis = await createTestRedis('first');
    [slack, smtp] = await Promise.all([startSlackCapture(), startSmtpCapture()]);
    const sandboxPort = await freePort();
    // The sandbox exactly as the README starts it: its default seed and issuer count.
    sandbox = spawnShortwatch(['sandbox', '--port', String(sandboxPort)]);
    await waitFor('the sandbox to listen', () => sandbox.stdout().includes('listening on'));
    env = {
      SHORTWATCH_UPSTREAM_URL: `http://127.0.0.1:${sandboxPort}`,
      SHORTWATCH_API_KEY: 'sandbox-key',
      SLACK_WEBHOOK_URL: slack.url,
      SMTP_URL: `smtp://${smtp.host}:${smtp.port}`,
      REDIS_URL: TEST_REDIS_URL,
      SHORTWATCH_REDIS_PREFIX: redis.prefix,
      SHORTWATCH_HTTP_PORT: String(await freePort()),
    };
  });

  afterAll(async () => {
    await stopDaemons(sandbox ? [sandbox] : []);
    await Promise.all([slack?.close(), smtp?.close()]);
    await redis?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[]) =>
    runShortwatch(['-c', configFile, ...args], { ...cleanEnvironment(), ...env });

  it('needs no variable that .env.example does not list, and every one it requires', () => {
    const listed = listedVariables(envExample);
    expect(Object.keys(env).filter((name) => !listed.has(name))).toEqual([]);
    const required = [...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '');
    expect(required.filter((name) => !(name in env))).toEqual([]);
  });

  it('check: config, Redis, every channel and the upstream key are ok (exit 0)', async () => {
    const { code, stdout, stderr } = await run(['check']);
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).not.toContain('FAIL');
    expect(stdout).toContain('3 watched issuers, 4 channels');
    for (const channel of ['desk', 'holders-alert', 'daily-digest', 'ops']) {
      expect(stdout).toMatch(new RegExp(`^ok +channel ${channel}: `, 'm'));
    }
    expect(stdout).toMatch(/^ok +upstream http:\/\/127\.0\.0\.1:\d+: key accepted, 12 issuers$/m);
  });

  it('start: the first poll stores a snapshot of every watched issuer, and /healthz answers', async () => {
    const keys = stateKeys(keyRoot(redis.prefix));
    const daemon = spawnShortwatch(['-c', configFile, 'start'], { ...cleanEnvironment(), ...env });
    try {
      await waitFor(
        'a snapshot of each watched issuer',
        async () => {
          if (daemon.child.exitCode !== null) {
            throw new Error(`start exited ${daemon.child.exitCode}:\n${daemon.stderr()}`);
          }
          const found = await Promise.all(WATCHED.map((id) => redis.redis.exists(keys.snapshot(id))));
          return found.every((n) => n === 1);
        },
        30_000,
      );
      const health = await httpGet(`http://127.0.0.1:${env.SHORTWATCH_HTTP_PORT}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await stopDaemons([daemon]);
    }
    expect(await daemon.exited).toBe(0);
    // The first sight of an issuer is a silent baseline: nothing was sent.
    expect(slack.posts).toEqual([]);
    expect(smtp.mails).toEqual([]);
  });
});
