import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach } from 'vitest';
import { stringify } from 'yaml';
import { z } from 'zod';
import { App } from '../../src/app.js';
import { accessFingerprint } from '../../src/budget/access-state.js';
import { parseConfig } from '../../src/config/load.js';
import { type SlackCapture, startSlackCapture } from '../../src/demo/slack-capture.js';
import { type SmtpCapture, startSmtpCapture } from '../../src/demo/smtp-capture.js';
import { holderKey } from '../../src/positions/index.js';
import { createScenario, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import {
  keyRoot,
  type LedgerKeys,
  ledgerKeys,
  ledgerRoot,
  type StateKeys,
  stateKeys,
} from '../../src/state/keys.js';
import { silentLogger } from '../../src/telemetry/logger.js';
import { COMPILED_ENV } from '../helpers/compiled-cli.js';
import { createTestRedis, deleteByPrefix, type TestRedis } from '../helpers/redis.js';
import { readChanges } from './story-lines.js';

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

/**
 * How a child runs the CLI: the tree compiled by the suite's global setup when there is one
 * (`compiled-cli.ts`), else the sources through tsx (a file run outside the suite's config).
 */
function cliArgv(): string[] {
  const compiled = process.env[COMPILED_ENV];
  return compiled ? [compiled] : ['--import', 'tsx', join(ROOT, 'src/main.ts')];
}

/** Runs `shortwatch <args>` in a child process, the way a user would. */
export function spawnShortwatch(args: string[], env: NodeJS.ProcessEnv = {}): DaemonProcess {
  const child = spawn(process.execPath, [...cliArgv(), ...args], {
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
  /** The configured `redis.prefix`; the App writes its keys under the hash tag `{prefix}`. */
  prefix: string;
  /** Every Redis key the stack's deployment writes (see src/state/keys.ts). */
  keys: StateKeys;
  /**
   * The budget's ledger of the stack's sandbox and `sandbox-key`: shared by every prefix configured with
   * them (the sandbox's URL is unique to the stack, so no other test counts in it).
   */
  ledger: LedgerKeys;
  configPath: string;
  configObject: Record<string, unknown>;
  /** Rewrites the config file (for reload tests). */
  writeConfig(config: Record<string, unknown>): void;
  /** Opens an App in this process on the stack's config (the caller stops it). */
  openApp(): Promise<App>;
  cleanup(): Promise<void>;
}

/**
 * The ledger root of a config's upstream (base URL and literal key), or undefined when the key is a
 * `${VAR}` placeholder or missing.
 */
function ledgerOfConfig(config: Record<string, unknown>): string | undefined {
  const upstream = config.upstream;
  if (!isRecord(upstream)) return undefined;
  const { baseUrl, apiKey } = upstream;
  if (typeof baseUrl !== 'string' || typeof apiKey !== 'string' || /\$\{/.test(apiKey)) return undefined;
  return ledgerRoot(accessFingerprint(baseUrl, apiKey));
}

/**
 * Builds an isolated stack; `cleanup()` closes servers and deletes every key under the prefix and the
 * ledger of every upstream credential a config of the stack named.
 */
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
    // Tests step the sandbox many times a minute: a flapping holder's changes would be held for the
    // window. The tests of holds set their own window.
    alerts: { flapWindow: '0s' },
    // Tests kill senders inside a send: their message goes again once the grace (60 s by default) has
    // passed since the killed process last beat. The tests of long outages set the default back.
    delivery: { claimGrace: '12s' },
    budget: { perMinute: 6_000, perDay: 5_000_000, reserve: 10 },
    watchlist: issuers.map((i) => ({ id: i.svc_issuer_id })),
    channels,
    ...(wanted.has('ops') ? { ops: { channel: 'ops' } } : {}),
    log: { level: 'warn', format: 'json' },
  };
  const configObject = { ...base, ...options.config };
  const ledgers = new Set([ledgerRoot(accessFingerprint(sandbox.url, 'sandbox-key'))]);
  // The sandbox's URL is new to this stack, but its port may not be: a daemon an earlier stack spawned
  // can count a last request after that stack's cleanup, and its ledger keys outlive it (seen: a
  // console test found 8 requests spent before its first). The stack starts from an empty ledger.
  for (const ledger of ledgers) await deleteByPrefix(redis.redis, ledger);
  const writeConfig = (config: Record<string, unknown>) => {
    const ledger = ledgerOfConfig(config);
    if (ledger !== undefined) ledgers.add(ledger);
    writeFileSync(configPath, stringify(config));
  };
  writeConfig(configObject);
  return {
    sandbox,
    slack,
    smtp,
    redis,
    prefix: redis.prefix,
    keys: stateKeys(keyRoot(redis.prefix)),
    ledger: ledgerKeys(ledgerRoot(accessFingerprint(sandbox.url, 'sandbox-key'))),
    configPath,
    configObject,
    writeConfig,
    openApp: async () =>
      App.open(parseConfig(stringify(configObject), configPath), { logger: silentLogger() }),
    async cleanup() {
      await Promise.all([sandbox.close(), slack.close(), smtp.close()]);
      for (const ledger of ledgers) await deleteByPrefix(redis.redis, ledger);
      await redis.cleanup();
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The stack, App and spawned daemons of the running test, stopped and cleaned up after each test by
 * {@link usePerTest}.
 */
export interface PerTest {
  stack?: Stack;
  app?: App;
  daemons: DaemonProcess[];
}

/**
 * Registers an `afterEach` that stops the test's daemons and App, then cleans its stack; set them as the
 * test starts them.
 */
export function usePerTest(): PerTest {
  const current: PerTest = { daemons: [] };
  afterEach(async () => {
    await stopDaemons(current.daemons);
    current.daemons = [];
    await current.app?.stop(2_000);
    await current.stack?.cleanup();
    current.app = undefined;
    current.stack = undefined;
  });
  return current;
}

/** Replaces the stack's config in place: the file and later `openApp()` calls both follow. */
export function updateConfig(
  stack: Stack,
  change: (config: Record<string, unknown>) => Record<string, unknown>,
): void {
  const next = change(structuredClone(stack.configObject));
  for (const key of Object.keys(stack.configObject)) delete stack.configObject[key];
  Object.assign(stack.configObject, next);
  stack.writeConfig(stack.configObject);
}

/** A config change: `patch` merged into the channel called `name` (for {@link updateConfig} or a file). */
export function withChannelPatch(name: string, patch: Record<string, unknown>) {
  return (config: Record<string, unknown>): Record<string, unknown> => ({
    ...config,
    channels: (Array.isArray(config.channels) ? config.channels : []).map((c: unknown) =>
      isRecord(c) && c.name === name ? { ...c, ...patch } : c,
    ),
  });
}

/** Merges `patch` into the configured channel called `name` (see {@link updateConfig}). */
export function patchChannel(stack: Stack, name: string, patch: Record<string, unknown>): void {
  updateConfig(stack, (config) => {
    const channels = Array.isArray(config.channels) ? config.channels : [];
    const found = channels.some((c: unknown) => isRecord(c) && c.name === name);
    if (!found) throw new Error(`no channel "${name}" in the stack config`);
    return {
      ...config,
      channels: channels.map((c: unknown) => (isRecord(c) && c.name === name ? { ...c, ...patch } : c)),
    };
  });
}

/** Adds a channel to the stack's config (see {@link updateConfig}). */
export function addChannel(stack: Stack, channel: Record<string, unknown>): void {
  updateConfig(stack, (config) => ({
    ...config,
    channels: [...(Array.isArray(config.channels) ? config.channels : []), channel],
  }));
}

/** Starts `shortwatch start|worker` on the stack's config and waits until the process registered in Redis. */
export async function spawnDaemon(
  stack: Stack,
  role: 'start' | 'worker',
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 30_000,
): Promise<DaemonProcess> {
  const daemon = spawnShortwatch(['-c', stack.configPath, role], env);
  let exited: number | string | undefined;
  void daemon.exited.then((code) => {
    exited = code;
  });
  const pid = daemon.child.pid;
  try {
    await waitFor(
      `shortwatch ${role} (pid ${pid}) to register`,
      async () => {
        if (exited !== undefined) {
          throw new Error(`shortwatch ${role} exited with ${exited} before it ran:\n${daemon.stderr()}`);
        }
        const fields = await stack.redis.redis.hkeys(stack.keys.workers);
        return fields.some((field) => field.includes(`-${pid}-`));
      },
      timeoutMs,
    );
  } catch (error) {
    // Not left running unregistered: a caller that starts another would have two.
    if (exited === undefined) {
      daemon.kill('SIGKILL');
      await daemon.exited;
    }
    throw error;
  }
  return daemon;
}

/** Stops daemons with SIGTERM (SIGKILL after `graceMs`) and waits for each to exit. */
export async function stopDaemons(daemons: readonly DaemonProcess[], graceMs = 8_000): Promise<void> {
  await Promise.all(
    daemons.map(async (daemon) => {
      daemon.kill('SIGTERM');
      const timer = setTimeout(() => daemon.kill('SIGKILL'), graceMs);
      await daemon.exited;
      clearTimeout(timer);
    }),
  );
}

function collectStrings(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (isRecord(value)) for (const item of Object.values(value)) collectStrings(item, into);
  return into;
}

/** Every string of a Slack payload (the `text` fallback and each block's text), one per line. */
export function slackText(payload: unknown): string {
  return collectStrings(payload, []).join('\n');
}

const unescapeMrkdwn = (text: string) =>
  text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** The issuer id of a one-issuer message: its context line starts with it (`ISS-1 · Issuer total …`). */
function contextIssuer(blocks: readonly unknown[]): string | undefined {
  for (const block of blocks) {
    if (!isRecord(block) || block.type !== 'context' || !Array.isArray(block.elements)) continue;
    const [element] = block.elements;
    const text = isRecord(element) && typeof element.text === 'string' ? element.text : '';
    const id = /^([A-Z]+-\d+) · /.exec(text)?.[1];
    if (id) return id;
  }
  return undefined;
}

/**
 * The events a Slack payload carries, as `issuerId|holderKey|kind`, one per change (a holder's
 * sequence line counts each change in it), whether the message holds one issuer (named in its context
 * line) or several (a section per issuer, `*Name* (ID) · total …`). Counting these, not payloads,
 * stays right when a backlog coalesces.
 */
export function slackEvents(payload: unknown): string[] {
  const blocks = isRecord(payload) && Array.isArray(payload.blocks) ? payload.blocks : [];
  const found: string[] = [];
  let issuer = contextIssuer(blocks) ?? '?';
  for (const block of blocks) {
    if (!isRecord(block) || block.type !== 'section' || !isRecord(block.text)) continue;
    const text = typeof block.text.text === 'string' ? block.text.text : '';
    for (const line of text.split('\n')) {
      const heading = /^\*.*\* \(([A-Z]+-\d+)\) · /.exec(line);
      if (heading?.[1]) {
        issuer = heading[1];
        continue;
      }
      // Greedy to the last `* <what>`: a holder name may itself hold `*x* opened`.
      const holder =
        /^(?:<[^>]+> )?:[a-z_]+: \*(.+)\* (?:opened|raised|cut|fell below|back above|confirmed|crossed|\d+ changes)/.exec(
          line,
        )?.[1];
      const changes = holder === undefined ? undefined : readChanges(line);
      if (holder === undefined || !changes) continue;
      for (const change of changes)
        found.push(`${issuer}|${holderKey(unescapeMrkdwn(holder))}|${change.kind}`);
    }
  }
  return found;
}

/**
 * The issuers a Slack payload speaks of, once each, in message order: one for a single-issuer message,
 * several when a backlog coalesced into one post. Tests count these, never posts.
 */
export function slackIssuers(payload: unknown): string[] {
  return [...new Set(slackEvents(payload).map((event) => event.split('|')[0] ?? '?'))];
}

/** A TCP port on 127.0.0.1 that was free a moment ago, for configs that need a known port. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** GET `url`: the status and body, or status 0 when nothing answers. */
export async function httpGet(url: string): Promise<{ status: number; body: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: await response.text() };
  } catch {
    return { status: 0, body: '' };
  }
}

/** One sample of a Prometheus text exposition. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text format: every sample, and the TYPE of each metric family. */
export function parseMetrics(text: string): { samples: MetricSample[]; types: Map<string, string> } {
  const samples: MetricSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type?.[1] && type[2]) types.set(type[1], type[2]);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample?.[1] || !sample[3]) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      if (key !== undefined && value !== undefined) labels[key] = value;
    }
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { samples, types };
}

/** The sum of the samples called `name` whose labels include `labels` (0 when there are none). */
export function metricValue(
  samples: readonly MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** The JSON log lines in a process's output (`log.format: json`); other lines are skipped. */
export function logLines(output: string): Array<Record<string, unknown>> {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      const value: unknown = JSON.parse(line);
      return isRecord(value) ? [value] : [];
    } catch {
      return [];
    }
  });
}

/** Holds the sweeps still (none running, no poll in flight) while `inspect` runs, then lets them go on. */
export async function withSweepsPaused<T>(app: App, inspect: () => Promise<T>): Promise<T> {
  await app.queues.sweep.pause();
  try {
    await waitFor('the running sweep to finish', async () => (await app.queues.sweep.getActiveCount()) === 0);
    await waitFor('the polls to finish', async () => (await app.queues.poll.getActiveCount()) === 0);
    return await inspect();
  } finally {
    await app.queues.sweep.resume();
  }
}

/** Waits until the process logged a line whose `msg` contains `text` (needs `log.format: json`); returns it. */
export async function waitForLog(
  daemon: DaemonProcess,
  text: string,
  timeoutMs = 20_000,
  after = 0,
): Promise<Record<string, unknown>> {
  const found = await waitFor(
    `log line "${text}"`,
    () =>
      logLines(daemon.stderr())
        .slice(after)
        .find((line) => typeof line.msg === 'string' && line.msg.includes(text)),
    timeoutMs,
  );
  if (!found) throw new Error(`no log line "${text}"`);
  return found;
}

const sweepReturn = z.object({ outcome: z.string() });

/** The outcome of every completed sweep job kept in the queue (`polled`, `unchanged`, `blocked`, ...). */
export async function sweepOutcomes(app: App): Promise<string[]> {
  const jobs = await app.queues.sweep.getJobs(['completed'], 0, -1);
  return jobs.map((job) => sweepReturn.safeParse(job.returnvalue).data?.outcome ?? 'unreadable');
}

/**
 * Sleeps into a fresh window of `lengthMs` (UTC-aligned, like the budget's) when less than `marginMs` of
 * the current one is left. Near a window's end the budget holds requests until the next window starts, so
 * several can leave together; a fault injected away from it meets one request alone.
 */
export async function awayFromWindowEnd(lengthMs: number, marginMs: number): Promise<void> {
  const end = Math.floor(Date.now() / lengthMs) * lengthMs + lengthMs;
  if (end - Date.now() < marginMs) await sleep(end - Date.now() + 50);
}
