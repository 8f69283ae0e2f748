import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { App } from '../app.js';
import { accessFingerprint } from '../budget/access-state.js';
import { sourcesSchema } from '../config/schema/sources.js';
import type { Config } from '../config/schema.js';
import { collectSecrets } from '../config/secret.js';
import { lastWeekdayBefore } from '../sandbox/dates.js';
import { createScenario, type Sandbox, startSandbox } from '../sandbox/index.js';
import { ledgerRoot } from '../state/keys.js';
import { createLogger } from '../telemetry/logger.js';
import type { DemoRedis } from './acquire-redis.js';
import { alertLine, slackAlertLines } from './alert-lines.js';
import { type CaptureFiles, createCaptureFiles, prepareCaptureDirs } from './capture-files.js';
import { deleteKeysUnder } from './delete-prefix.js';
import { loadDemoConfig } from './demo-config.js';
import { createEmailScreenshots } from './email-screenshots.js';
import { connectOnce } from './redis-probe.js';
import { freePort } from './redis-server-child.js';
import { startRegisterReplay } from './register-replay.js';
import { startSlackCapture } from './slack-capture.js';
import { startSmtpCapture } from './smtp-capture.js';
import type { Teardown } from './teardown.js';

/** The demo's scenario: config/demo.yaml watches its issuers by name, so the two change together. */
export const DEMO_SCENARIO = { seed: 20, issuers: 8 } as const;

/** How often the sandbox's data changes. */
export const DEMO_STEP_MS = 5_000;

/** Where the demo reads its environment and writes its lines. */
export interface DemoIo {
  env: NodeJS.ProcessEnv;
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean };
}

/** The demo's parts, once started (not yet polling). */
export interface RunningDemo {
  prefix: string;
  config: Config;
  app: App;
  sandboxUrl: string;
  issuers: number;
  /** The simulator itself: `--chaos` drives its faults. */
  sandbox: Sandbox;
  slackUrl: string;
  smtp: string;
  files: CaptureFiles;
  /** Keys removed at teardown, once it has run. */
  removedKeys(): number | undefined;
}

/** Prints what `work` returns; a failure to write one capture is reported, not fatal. */
function record(io: DemoIo, work: () => string[]): void {
  try {
    for (const line of work()) io.stdout.write(`${line}\n`);
  } catch (error) {
    io.stderr.write(`shortwatch demo: could not record a delivery: ${String(error)}\n`);
  }
}

/** How long stopping waits for the e-mail pictures still queued: under the teardown's bound per step. */
const PICTURES_WAIT_MS = 3_000;

async function startCaptures(out: string, io: DemoIo, teardown: Teardown) {
  prepareCaptureDirs(out);
  const files = createCaptureFiles(out, createEmailScreenshots());
  // Runs after the SMTP server stops (steps run newest first): the last mails' pictures are queued.
  // Pictures are a convenience: on a busy machine the last ones may not be taken before the step's time
  // runs out, which is said, not counted as a failed stop (the .eml and .html files are complete).
  teardown.add('e-mail pictures', async () => {
    const late = new Promise<'late'>((resolve) =>
      setTimeout(() => resolve('late'), PICTURES_WAIT_MS).unref(),
    );
    const problem = await Promise.race([files.close(), late]);
    if (problem === 'late')
      io.stdout.write(
        `Some e-mail pictures were not taken within ${PICTURES_WAIT_MS / 1000} s; the .eml and .html files are complete.\n`,
      );
    else if (problem) io.stderr.write(`${problem}\n`);
  });
  const slack = await startSlackCapture({
    onPost: (post) =>
      record(io, () => {
        files.slack(post);
        return slackAlertLines(post.payload).map((line) => alertLine(post.receivedAt, 'slack', line));
      }),
  });
  teardown.add('Slack stand-in', () => slack.close());
  const smtp = await startSmtpCapture({
    onMail: (mail) =>
      record(io, () => {
        const { kind } = files.mail(mail);
        // An alert's subject is its issuer's thread of the day; its first line says what changed.
        const headline = kind === 'email' ? mail.parsed.text?.split('\n')[0] : undefined;
        return [alertLine(mail.receivedAt, kind, headline || mail.parsed.subject || '(no subject)')];
      }),
  });
  teardown.add('SMTP server', () => smtp.close());
  return { files, slack, smtp };
}

/** How often the demo reads its replayed registers (production: each source's `interval`). */
const DEMO_REGISTER_INTERVAL = '2s';

/** `--registers`: the replay server started, and its two sources added to the demo's config. */
async function withRegisters(config: Config, io: DemoIo, teardown: Teardown): Promise<Config> {
  const replay = await startRegisterReplay(DEMO_STEP_MS);
  teardown.add('register replay', () => replay.close());
  for (const source of replay.sources)
    io.stdout.write(
      `Register ${source.name} (${source.kind}): ${source.url}, read every ${DEMO_REGISTER_INTERVAL}\n`,
    );
  const sources = sourcesSchema.parse(
    replay.sources.map((s) => ({ ...s, interval: DEMO_REGISTER_INTERVAL })),
  );
  return { ...config, sources };
}

/**
 * The Redis connection that deletes the demo's keys at teardown: those under its prefix, and its budget's
 * ledger once `ledger` is known (it belongs to the upstream's URL and key, not to the prefix; the demo's
 * sandbox listens on a port of this run, so no one else counts in it). `removed` counts them.
 */
async function demoKeys(
  url: string,
  prefix: string,
  teardown: Teardown,
): Promise<{ ledger: string | undefined; removed: number | undefined }> {
  const admin = connectOnce(url, 2_000);
  await admin.connect();
  teardown.add('Redis connection', () => admin.quit());
  const keys: { ledger: string | undefined; removed: number | undefined } = {
    ledger: undefined,
    removed: undefined,
  };
  teardown.add('demo keys', async () => {
    keys.removed = await deleteKeysUnder(admin, prefix);
    if (keys.ledger !== undefined) keys.removed += await deleteKeysUnder(admin, keys.ledger);
  });
  return keys;
}

/** The sandbox upstream playing the demo's scenario, within the config's budget limits. */
function startDemoSandbox(port: number, budget: Config['budget']) {
  return startSandbox({
    port,
    // The calendar starts on the last weekday, so the first messages read as today's news; a step is a
    // weekday every DEMO_STEP_MS, so its dates soon run ahead of the clock (never "first seen" late).
    scenario: createScenario({ ...DEMO_SCENARIO, start: lastWeekdayBefore(Date.now()) }),
    stepEvery: DEMO_STEP_MS,
    limits: {
      perMinute: budget.perMinute,
      perDay: budget.perDay,
      minuteMs: budget.minuteWindow,
      dayMs: budget.dayWindow,
    },
  });
}

/**
 * Starts, in this process, the Slack stand-in, the SMTP server, the sandbox and the daemon's parts on
 * config/demo.yaml, under a fresh key prefix; each is registered on `teardown` as soon as it runs.
 */
export async function startDemo(
  out: string,
  redis: DemoRedis,
  io: DemoIo,
  teardown: Teardown,
  options: { registers: boolean } = { registers: false },
): Promise<RunningDemo> {
  const prefix = `shortwatch-demo-${randomBytes(4).toString('hex')}`;
  const keys = await demoKeys(redis.url, prefix, teardown);
  const { files, slack, smtp } = await startCaptures(out, io, teardown);
  // The sandbox's port is known before it starts, so it can take its limits from the config.
  const sandboxPort = await freePort();
  const loaded = loadDemoConfig(
    {
      upstreamUrl: `http://127.0.0.1:${sandboxPort}`,
      slackUrl: slack.url,
      smtpPort: smtp.port,
      redisUrl: redis.url,
      prefix,
    },
    io.env,
  );
  const config = options.registers ? await withRegisters(loaded, io, teardown) : loaded;
  const { upstream } = config;
  // config/demo.yaml names the sandbox as its upstream; a config without one has no ledger to delete.
  if (upstream) keys.ledger = ledgerRoot(accessFingerprint(upstream.baseUrl, upstream.apiKey));
  const sandbox = await startDemoSandbox(sandboxPort, config.budget);
  teardown.add('sandbox', () => sandbox.close());
  const logger = createLogger({
    level: config.log.level,
    format: config.log.format,
    secrets: collectSecrets(config),
    destination: io.stderr,
    isTTY: io.stderr.isTTY ?? false,
  });
  const app = await App.open(config, { logger });
  teardown.add('daemon', () => app.stop(2_000));
  return {
    prefix,
    config,
    app,
    sandboxUrl: sandbox.url,
    issuers: sandbox.scenario.issuers().length,
    sandbox,
    slackUrl: slack.url,
    smtp: `${smtp.host}:${smtp.port}`,
    files,
    removedKeys: () => keys.removed,
  };
}
