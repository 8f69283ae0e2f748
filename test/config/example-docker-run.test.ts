// The Dockerfile header's `docker run` lines, read as a shell would split them and checked against the
// image they run (no Docker engine runs here), then run the way the image runs them: the entrypoint
// (`node bin/shortwatch.js`, the compiled dist/ when built) with the image's ENV and the variables `-e`
// passes from a shell that loaded a .env written as .env.example says (quotes included). Only what Docker's
// own network supplies differs: Redis (the `redis` container), the port, and a Redis prefix for this run.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../src/config/load.js';
import { isLoopbackHost } from '../../src/config/upstream-url.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { createScenario, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { type DaemonProcess, freePort, stopDaemons, waitFor } from '../e2e/harness.js';
import { createTestRedis, TEST_REDIS_URL, type TestRedis } from '../helpers/redis.js';
import { shellWords } from '../helpers/shell-words.js';
import { args, imageEnv, read, requiredInEnvExample, services } from './example-compose.js';

const ROOT = new URL('../../', import.meta.url);

/** The header's command lines (`#   ` then the command), continuations joined, as words. */
function headerCommands(): string[][] {
  const header = read('Dockerfile').split('\n');
  const comments = header.slice(
    0,
    header.findIndex((line) => !line.startsWith('#')),
  );
  return comments
    .filter((line) => line.startsWith('#   '))
    .map((line) => line.slice(1).trim())
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map(shellWords);
}

/** One `docker run`: its options (each name → its values), image and command. */
interface DockerRun {
  options: Map<string, string[]>;
  flags: Set<string>;
  image: string;
  command: string[];
}

const VALUED = new Set(['--name', '--network', '-e', '-v', '-p', '--env-file']);

function dockerRun(words: readonly string[]): DockerRun {
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  let i = 2;
  for (; i < words.length && words[i]?.startsWith('-'); i++) {
    const name = words[i] ?? '';
    if (VALUED.has(name)) {
      options.set(name, [...(options.get(name) ?? []), words[i + 1] ?? '']);
      i++;
    } else flags.add(name);
  }
  return { options, flags, image: words[i] ?? '', command: words.slice(i + 1) };
}

const commands = headerCommands();
const runs = commands.filter((w) => w[0] === 'docker' && w[1] === 'run').map(dockerRun);
const redisRun = runs.find((r) => r.options.get('--name')?.includes('redis'));
const appRun = runs.find((r) => r.image === 'shortwatch');
const passed = (run: DockerRun | undefined) => run?.options.get('-e') ?? [];
const redisUrl = passed(appRun)
  .find((e) => e.startsWith('REDIS_URL='))
  ?.slice('REDIS_URL='.length);

describe("the Dockerfile's docker run, read", () => {
  it('runs a Redis container and shortwatch, on one network of their own', () => {
    expect(redisRun && appRun).toBeTruthy();
    expect(commands).toContainEqual(['docker', 'network', 'create', appRun?.options.get('--network')?.[0]]);
    expect(redisRun?.options.get('--network')).toEqual(appRun?.options.get('--network'));
  });

  it("finds Redis by the Redis container's name, never on the container's own loopback", () => {
    const host = new URL(redisUrl ?? 'redis://127.0.0.1').hostname;
    expect(isLoopbackHost(host)).toBe(false);
    expect(redisRun?.options.get('--name')).toEqual([host]);
  });

  it("runs compose's Redis: the same pinned image, AOF on, noeviction, its data on a volume", () => {
    const [, composeRedis] = services.find(([name]) => name === 'redis') ?? [];
    expect(redisRun?.image).toBe(composeRedis?.image);
    expect(redisRun?.command.join(' ')).toContain('--appendonly yes');
    expect(redisRun?.command.join(' ')).toContain('--maxmemory-policy noeviction');
    expect(redisRun?.options.get('-v')?.[0]).toMatch(/^[\w-]+:\/data$/);
  });

  it('passes every variable the example requires from a shell that loaded .env; no --env-file', () => {
    const names = passed(appRun).map((e) => e.split('=')[0]);
    expect(requiredInEnvExample.filter((name) => !names.includes(name))).toEqual([]);
    expect(runs.filter((r) => r.options.has('--env-file'))).toEqual([]);
    const loads = commands.findIndex((w) => w.join(' ') === 'set -a && . ./.env && set +a');
    expect(loads).toBeGreaterThanOrEqual(0);
    const runsApp = (w: string[]) =>
      w[0] === 'docker' && w[1] === 'run' && dockerRun(w).image === 'shortwatch';
    expect(loads).toBeLessThan(commands.findIndex(runsApp));
  });

  it('mounts the config where the image reads it and publishes the port the example binds there', () => {
    const [, target] = appRun?.options.get('-v')?.[0]?.split(':') ?? [];
    expect(target).toBe(imageEnv.SHORTWATCH_CONFIG);
    const [host, , container] = appRun?.options.get('-p')?.[0]?.split(':') ?? [];
    expect(host).toBe('127.0.0.1');
    expect(args('EXPOSE')).toEqual([container]);
    const env = { ...imageEnv, SHORTWATCH_UPSTREAM_URL: 'https://x.example', SHORTWATCH_API_KEY: 'k' };
    const example = parseConfig(read('config/example.yaml'), 'config/shortwatch.yaml', {
      ...env,
      SLACK_WEBHOOK_URL: 'https://hooks.slack.invalid/x',
      SMTP_URL: 'smtp://mail.example.com:587',
    });
    expect(example.http).toMatchObject({ port: Number(container), host: '0.0.0.0' });
  });
});

describe("the README's compose deployment", () => {
  it('builds the image it starts (`up -d --build`): an upgrade runs the new code, not the old image', () => {
    const section = read('README.md').slice(read('README.md').indexOf('### Production: docker compose'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const ups = block
      .split('\n')
      .map(shellWords)
      .filter((w) => w[0] === 'docker' && w[1] === 'compose' && w[2] === 'up');
    expect(ups[0]).toEqual(['docker', 'compose', 'up', '-d', '--build']);
  });
});

/** What a shell exports after `set -a && . ./.env && set +a` in `dir`, with nothing else set. */
async function shellLoaded(dir: string): Promise<Record<string, string>> {
  const script = `set -a && . ./.env && set +a && exec "${process.execPath}" -e 'process.stdout.write(JSON.stringify(process.env))'`;
  const child = spawn('sh', ['-c', script], { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
  return z.record(z.string(), z.string()).parse(JSON.parse(out));
}

describe("the Dockerfile's docker run, run as the image runs it", () => {
  let dir: string;
  let sandbox: Sandbox;
  let slack: SlackCapture;
  let smtp: SmtpCapture;
  let redis: TestRedis;
  let daemon: DaemonProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shortwatch-docker-run-'));
    sandbox = await startSandbox({ scenario: createScenario({ seed: 1, issuers: 12 }) });
    [slack, smtp, redis] = await Promise.all([
      startSlackCapture(),
      startSmtpCapture(),
      createTestRedis('run'),
    ]);
  });

  afterAll(async () => {
    if (daemon) await stopDaemons([daemon]);
    await Promise.all([sandbox?.close(), slack?.close(), smtp?.close()]);
    await redis?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a .env with quoted values, loaded by the shell: start polls the upstream and serves /healthz', async () => {
    // Quoted as .env.example says a value may be (and must be, holding '$' or '&'): the shell drops the
    // quotes, where `--env-file` would pass them on.
    const dotEnv = [
      `SHORTWATCH_UPSTREAM_URL=${sandbox.url}`,
      `SHORTWATCH_API_KEY='sandbox-key'`,
      `SLACK_WEBHOOK_URL='${slack.url}?a=1&b=2'`,
      `SMTP_URL=smtp://${smtp.host}:${smtp.port}`,
    ].join('\n');
    writeFileSync(join(dir, '.env'), `${dotEnv}\n`);
    const shell = await shellLoaded(dir);
    expect(shell.SHORTWATCH_API_KEY).toBe('sandbox-key');

    const config = join(dir, 'shortwatch.yaml');
    copyFileSync(new URL('config/example.yaml', ROOT), config);
    const fromRun = Object.fromEntries(
      passed(appRun).map((e) => {
        const [name = '', ...value] = e.split('=');
        return [name, value.length > 0 ? value.join('=') : (shell[name] ?? '')];
      }),
    );
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...imageEnv,
      ...fromRun,
      // Docker's side: the `redis` container, the mounted config, a free port, this run's own prefix.
      REDIS_URL: TEST_REDIS_URL,
      SHORTWATCH_CONFIG: config,
      SHORTWATCH_HTTP_PORT: String(port),
      SHORTWATCH_REDIS_PREFIX: redis.prefix,
    };
    const exec = (name: string) => z.array(z.string()).parse(JSON.parse(args(name)[0] ?? '[]'));
    const [entrypoint, script = ''] = exec('ENTRYPOINT');
    expect([entrypoint, script]).toEqual(['node', 'bin/shortwatch.js']);
    const command = appRun?.command.length ? appRun.command : exec('CMD');
    const child = spawn(process.execPath, [script, ...command], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    daemon = {
      child,
      stdout: () => '',
      stderr: () => err,
      exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1))),
      kill: (signal = 'SIGTERM') => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      },
    };
    await waitFor(
      'positions polled with the unquoted key, and /healthz',
      async () => {
        if (child.exitCode !== null) throw new Error(`start exited ${child.exitCode}:\n${err}`);
        if (sandbox.stats.count({ operation: 'positions', key: 'sandbox-key', status: 200 }) < 3)
          return false;
        const health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return health?.status === 200;
      },
      60_000,
    );
    expect(sandbox.stats.count({ status: 401 })).toBe(0);
    await stopDaemons([daemon]);
    expect(await daemon.exited, err).toBe(0);
  }, 90_000);
});
