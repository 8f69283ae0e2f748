import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { App } from '../../src/app.js';
import { parseConfig } from '../../src/config/load.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { silentLogger } from '../../src/ops/logger.js';
import { createScenario, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A running shortwatch process and what it printed. */
export interface DaemonProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** Runs `shortwatch <args>` in a child process (through tsx), the way a user would. */
export function spawnShortwatch(args: string[], env: NodeJS.ProcessEnv = {}): DaemonProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** Runs a short command to completion: exit code and output. */
export async function runShortwatch(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const p = spawnShortwatch(args, env);
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** What a stack is built from. */
export interface StackOptions {
  sandbox?: SandboxOptions;
  /** Scenario seed and size when `sandbox.scenario` is not given. */
  seed?: number;
  issuers?: number;
  /** Extra or replacement config sections, merged over the defaults (channels replace). */
  config?: Record<string, unknown>;
  /** Which default channels to configure. */
  channels?: Array<'slack' | 'email' | 'digest' | 'console' | 'ops'>;
}

/** Sandbox, Slack stand-in, SMTP server, a Redis prefix and a config file: one isolated world per test. */
export interface Stack {
  sandbox: Sandbox;
  slack: SlackCapture;
  smtp: SmtpCapture;
  redis: TestRedis;
  prefix: string;
  configPath: string;
  configObject: Record<string, unknown>;
  /** Rewrites the config file (for reload tests). */
  writeConfig(config: Record<string, unknown>): void;
  /** Opens an App in this process on the stack's config (the caller stops it). */
  openApp(): Promise<App>;
  cleanup(): Promise<void>;
}

/** Builds an isolated stack; `cleanup()` closes servers and deletes every key under the prefix. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const redis = await createTestRedis('e2e');
  // Generous caps by default so the planner keeps a 1 s gate; budget tests pass their own.
  const sandbox = await startSandbox({
    scenario: createScenario({ seed: options.seed ?? 7, issuers: options.issuers ?? 6 }),
    limits: { perMinute: 6_000, perDay: 5_000_000 },
    ...options.sandbox,
  });
  const slack = await startSlackCapture();
  const smtp = await startSmtpCapture();
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-e2e-'));
  const configPath = join(dir, 'shortwatch.yaml');
  const wanted = new Set(options.channels ?? ['slack', 'email']);
  const channels: Record<string, unknown>[] = [];
  if (wanted.has('slack')) {
    channels.push({
      name: 'desk',
      kind: 'slack',
      webhookUrl: slack.url,
      backoff: '200ms',
      attempts: 6,
      ratePerSecond: 20,
    });
  }
  if (wanted.has('email')) {
    channels.push({
      name: 'alerts',
      kind: 'email',
      host: smtp.host,
      port: smtp.port,
      secure: false,
      from: 'shortwatch@example.test',
      to: ['trader@example.test'],
      backoff: '200ms',
      attempts: 6,
      ratePerSecond: 50,
    });
  }
  if (wanted.has('digest')) {
    channels.push({
      name: 'morning',
      kind: 'email',
      mode: 'digest',
      schedule: '*/5 * * * * *',
      timezone: 'Europe/London',
      host: smtp.host,
      port: smtp.port,
      secure: false,
      from: 'shortwatch@example.test',
      to: ['digest@example.test'],
      backoff: '200ms',
    });
  }
  if (wanted.has('console')) channels.push({ name: 'console', kind: 'console' });
  if (wanted.has('ops')) {
    channels.push({
      name: 'ops',
      kind: 'slack',
      webhookUrl: `${slack.url}/ops`,
      backoff: '200ms',
      ratePerSecond: 20,
    });
  }
  const issuers = sandbox.scenario.issuers();
  const base: Record<string, unknown> = {
    upstream: { baseUrl: sandbox.url, apiKey: 'sandbox-key', timeout: '2s', retries: 1, retryDelay: '50ms' },
    redis: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: redis.prefix },
    poll: { gateInterval: '1s', concurrency: 4 },
    budget: { perMinute: 6_000, perDay: 5_000_000, reserve: 10 },
    watchlist: issuers.map((i) => ({ id: i.svc_issuer_id })),
    channels,
    ...(wanted.has('ops') ? { ops: { channel: 'ops' } } : {}),
    log: { level: 'warn', format: 'json' },
  };
  const configObject = { ...base, ...options.config };
  const writeConfig = (config: Record<string, unknown>) => writeFileSync(configPath, stringify(config));
  writeConfig(configObject);
  return {
    sandbox,
    slack,
    smtp,
    redis,
    prefix: redis.prefix,
    configPath,
    configObject,
    writeConfig,
    openApp: async () =>
      App.open(parseConfig(stringify(configObject), configPath), { logger: silentLogger() }),
    async cleanup() {
      await Promise.all([sandbox.close(), slack.close(), smtp.close()]);
      await redis.cleanup();
    },
  };
}
