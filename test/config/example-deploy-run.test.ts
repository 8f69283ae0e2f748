// The compose deployment run for real, without Docker: `shortwatch start` on an unedited copy of
// config/example.yaml, in the environment compose gives the `shortwatch` container (the image's ENV, a .env
// filled in as .env.example says, the service's `environment:`). Only what compose points at its own
// network differs: Redis, and the port (a free one, not 9464). A published port forwards to the container's
// own interface, never to its loopback, so the probes are fetched on a non-loopback address of this machine;
// the health check's own way is 127.0.0.1.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { createScenario, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ledgerRoot } from '../../src/state/keys.js';
import { type DaemonProcess, freePort, spawnShortwatch, stopDaemons, waitFor } from '../e2e/harness.js';
import { createTestRedis, deleteByPrefix, TEST_REDIS_URL, type TestRedis } from '../helpers/redis.js';
import { containerEnv, read, shortwatchServices } from './example-compose.js';

const ROOT = new URL('../../', import.meta.url);
const TOKEN = 'console-token-7d41e2-b93f0c58a1d64e27';

/**
 * An address of this machine that is not loopback, as a container's eth0 is to its port forward. Without
 * one, 127.0.0.2: on Linux all of 127/8 is local, yet a socket bound to 127.0.0.1 does not take it.
 */
function outsideAddress(): string {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return all.find((a) => a.family === 'IPv4' && !a.internal)?.address ?? '127.0.0.2';
}

/** GET without following redirects: status, location and body; status 0 when nothing answers. */
async function get(url: string, headers: Record<string, string> = {}) {
  try {
    const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: await response.text(),
    };
  } catch {
    return { status: 0, location: null, body: '' };
  }
}

/** The parent's environment without any variable .env.example lists: the container's values only. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [, name = ''] of read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)) delete env[name];
  return env;
}

const [, shortwatchService] = shortwatchServices.find(([name]) => name === 'shortwatch') ?? [];
const outside = outsideAddress();

describe('the compose deployment, run: shortwatch start on the copied example in its container environment', () => {
  let dir: string;
  let configFile: string;
  let sandbox: Sandbox;
  let slack: SlackCapture;
  let smtp: SmtpCapture;
  const redises: TestRedis[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-compose-'));
    configFile = join(dir, 'shortwatch.yaml');
    copyFileSync(new URL('config/example.yaml', ROOT), configFile);
    sandbox = await startSandbox({ scenario: createScenario({ seed: 1, issuers: 12 }) });
    [slack, smtp] = await Promise.all([startSlackCapture(), startSmtpCapture()]);
  });

  afterAll(async () => {
    await Promise.all([sandbox?.close(), slack?.close(), smtp?.close()]);
    // The budget's ledger of this run's own sandbox (its URL is unique to the run): no prefix holds it.
    const [first] = redises;
    if (first && sandbox)
      await deleteByPrefix(first.redis, ledgerRoot(accessFingerprint(sandbox.url, 'sandbox-key')));
    await Promise.all(redises.map((redis) => redis.cleanup()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the daemon as the `shortwatch` container would run, with `extra` added to its .env. */
  async function startContainer(extra: Record<string, string>) {
    if (!shortwatchService) throw new Error('docker-compose.yml has no shortwatch service');
    const redis = await createTestRedis('compose');
    redises.push(redis);
    const dotEnv = {
      SHORTWATCH_UPSTREAM_URL: sandbox.url,
      SHORTWATCH_API_KEY: 'sandbox-key',
      SLACK_WEBHOOK_URL: slack.url,
      SMTP_URL: `smtp://${smtp.host}:${smtp.port}`,
      ...extra,
    };
    const port = await freePort();
    const container = containerEnv(shortwatchService, dotEnv);
    // Compose's own network: its Redis is `redis:6379` and the port 9464 may be taken on this machine.
    const env = {
      ...container,
      REDIS_URL: TEST_REDIS_URL,
      SHORTWATCH_REDIS_PREFIX: redis.prefix,
      SHORTWATCH_HTTP_PORT: String(port),
    };
    const daemon = spawnShortwatch(['-c', configFile, 'start'], { ...cleanEnvironment(), ...env });
    const base = `http://${outside}:${port}`;
    // Up once it says so (SIGTERM is handled from then on), and /healthz answers on the outside address.
    try {
      await waitFor(
        `shortwatch running, /healthz on ${base}`,
        async () => {
          if (daemon.child.exitCode !== null)
            throw new Error(`start exited ${daemon.child.exitCode}:\n${daemon.stderr()}`);
          if (!daemon.stderr().includes('shortwatch running')) return false;
          return (await get(`${base}/healthz`)).status === 200;
        },
        60_000,
      );
    } catch (error) {
      await stopDaemons([daemon]);
      throw error;
    }
    return { daemon, base, local: `http://127.0.0.1:${port}`, container };
  }

  async function stop(daemon: DaemonProcess) {
    await stopDaemons([daemon]);
    expect(await daemon.exited, daemon.stderr()).toBe(0);
  }

  it(`the check can fail: a server bound to 127.0.0.1 is not reached on ${outside}`, async () => {
    const server = createServer((_, response) => response.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      expect((await get(`http://127.0.0.1:${port}/`)).status).toBe(200);
      expect((await get(`http://${outside}:${port}/`)).status).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it(`a fresh .env: /healthz, /readyz and /metrics answer on ${outside} and on 127.0.0.1; no console`, {
    timeout: 150_000,
  }, async () => {
    const { daemon, base, local, container } = await startContainer({});
    try {
      expect(container.SHORTWATCH_HTTP_HOST).toBe('0.0.0.0');
      expect((await get(`${local}/healthz`)).status).toBe(200);
      const ready = await waitFor(
        '/readyz to answer 200',
        async () => {
          const answer = await get(`${base}/readyz`);
          return answer.status === 200 ? answer.body : '';
        },
        60_000,
      );
      expect(JSON.parse(ready)).toMatchObject({ ready: true });
      const metrics = await get(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.body).toContain('shortwatch_budget_left');
      // No console without a token: its paths are not served at all.
      for (const path of ['/', '/login', '/events'])
        expect((await get(`${base}${path}`)).status, path).toBe(404);
    } finally {
      await stop(daemon);
    }
  });

  it('SHORTWATCH_HTTP_TOKEN in .env: the console asks for it, opens with it; the probes never ask', {
    timeout: 90_000,
  }, async () => {
    const { daemon, base } = await startContainer({ SHORTWATCH_HTTP_TOKEN: TOKEN });
    try {
      const anonymous = await get(`${base}/`);
      expect(anonymous.status).toBe(303);
      expect(anonymous.location).toMatch(/^\/login\b/);
      const wrong = await get(`${base}/`, { authorization: 'Bearer not-the-token' });
      expect(wrong.status).toBe(303);
      const overview = await get(`${base}/`, { authorization: `Bearer ${TOKEN}` });
      expect(overview.status).toBe(200);
      expect(overview.body).toContain('Overview');
      expect(overview.body).not.toContain(TOKEN);
      for (const path of ['/healthz', '/metrics'])
        expect((await get(`${base}${path}`)).status, path).toBe(200);
    } finally {
      await stop(daemon);
    }
  });
});
