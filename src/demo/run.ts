import { relative } from 'node:path';
import { CliError, EXIT } from '../cli/exit.js';
import { parseDuration } from '../config/duration.js';
import { createConsole } from '../console/handler.js';
import { sweepEvery } from '../jobs/schedulers.js';
import { startHttpServer } from '../ops/http-server.js';
import { acquireRedis, type DemoRedis } from './acquire-redis.js';
import { bannerLines } from './banner.js';
import { ChaosRun, DEMO_CHAOS_TIMING, startChaos } from './chaos-run.js';
import { buildChaosSchedule, CHAOS_MODES } from './chaos-schedule.js';
import { DEMO_CONFIG_FILE } from './demo-config.js';
import { isRedisNotFoundError } from './redis-not-found-error.js';
import { DEMO_STEP_MS, type DemoIo, type RunningDemo, startDemo } from './start-demo.js';
import { type SignalSource, watchForStop } from './stop-signal.js';
import { summaryLine } from './summary.js';
import { Teardown } from './teardown.js';

/** Options of `shortwatch demo`. */
export interface DemoOptions {
  /** Where captured messages are written. */
  out: string;
  /** Stop by itself after this long (e.g. `75s`); unset, run until Ctrl-C. */
  duration?: string;
  /** The sandbox cycles through the upstream's misbehaviours (issue 11) while the demo runs. */
  chaos?: boolean;
  /** Also read two register sources (AFM and FCA ANSP formats) replayed by a local server, changing each step. */
  registers?: boolean;
}

/** What the demo runs against: the process by default. */
export interface DemoDeps extends DemoIo {
  signals: SignalSource;
  /** Leaves at once (a second Ctrl-C while stopping). */
  exitNow: (code: number) => void;
}

function processDeps(): DemoDeps {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signals: process,
    exitNow: (code) => process.exit(code),
  };
}

function durationOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0)
    throw new CliError(`--duration: "${text}" is not a duration (e.g. 75s)`, EXIT.usage);
  return ms;
}

function banner(
  demo: RunningDemo,
  redis: DemoRedis,
  options: DemoOptions,
  durationMs: number | undefined,
  consoleUrl: string,
): string[] {
  const { config, app } = demo;
  const { out } = options;
  return bannerLines({
    sandboxUrl: demo.sandboxUrl,
    issuers: demo.issuers,
    stepEveryMs: DEMO_STEP_MS,
    caps: { perMinute: config.budget.perMinute, perDay: config.budget.perDay },
    gateEveryMs: sweepEvery(app.settings.plan),
    slackUrl: demo.slackUrl,
    smtp: demo.smtp,
    redis: redis.display,
    redisStarted: redis.child !== undefined,
    prefix: demo.prefix,
    configFile: relative(process.cwd(), DEMO_CONFIG_FILE) || DEMO_CONFIG_FILE,
    channels: config.channels,
    opsChannel: config.ops.channel,
    out,
    durationMs,
    consoleUrl,
    ...(options.chaos ? { chaos: { modes: CHAOS_MODES, ...DEMO_CHAOS_TIMING } } : {}),
  });
}

/** The web console on a free loopback port (no token needed there), closed at teardown; its address. */
async function startDemoConsole(demo: RunningDemo, teardown: Teardown): Promise<string> {
  const { server, port } = await startHttpServer(demo.app, 0, '127.0.0.1', createConsole(demo.app));
  teardown.add(
    'web console',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A browser left open keeps a connection: it must not hold the demo's exit.
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${port}/`;
}

/** `--chaos`: the cycle over the demo's issuers, stopped first at teardown. */
function startDemoChaos(demo: RunningDemo, teardown: Teardown, print: (line: string) => void): void {
  const { scenario } = demo.sandbox;
  const issuers = scenario.issuers().map((issuer) => ({
    id: issuer.svc_issuer_id,
    name: issuer.name,
    holders: scenario.active(issuer.svc_issuer_id)?.length ?? 0,
  }));
  const run = new ChaosRun(demo.sandbox, buildChaosSchedule(issuers), print);
  const chaos = startChaos(run, DEMO_CHAOS_TIMING);
  teardown.add('chaos', async () => chaos.stop());
}

/**
 * `shortwatch demo`: sandbox, Slack stand-in, SMTP server and daemon in one process; prints each
 * delivery, writes what the channels received under `out`, and on Ctrl-C (or after `duration`) stops
 * everything and removes its Redis keys. Resolves to the exit code.
 */
export async function runDemo(options: DemoOptions, deps: DemoDeps = processDeps()): Promise<number> {
  const durationMs = durationOf(options.duration);
  // Piped into `head` or a closed terminal, stdout fails with EPIPE: the demo must still clean up. The
  // listener stays: the error can surface after the last line, as the process ends.
  deps.stdout.on('error', () => undefined);
  return runWithRedis(options, durationMs, deps);
}

async function runWithRedis(
  options: DemoOptions,
  durationMs: number | undefined,
  deps: DemoDeps,
): Promise<number> {
  const print = (line: string) => deps.stdout.write(`${line}\n`);
  // Signals are watched from the start, so that Ctrl-C while starting still cleans up.
  const stop = watchForStop(deps.signals, durationMs, () => deps.exitNow(EXIT.failure));
  let redis: DemoRedis;
  try {
    redis = await acquireRedis(deps.env);
  } catch (error) {
    stop.dispose();
    if (!isRedisNotFoundError(error)) throw error;
    deps.stderr.write(`shortwatch demo: ${error.message}\n`);
    return EXIT.failure;
  }
  const teardown = new Teardown();
  const child = redis.child;
  if (child) teardown.add('redis-server', () => child.stop());
  let demo: RunningDemo;
  try {
    print(`Redis: ${redis.note}.`);
    demo = await startDemo(options.out, redis, deps, teardown, { registers: options.registers ?? false });
    const consoleUrl = await startDemoConsole(demo, teardown);
    for (const line of banner(demo, redis, options, durationMs, consoleUrl)) print(line);
    await demo.app.startDaemon({ workerOnly: false });
    if (options.chaos) startDemoChaos(demo, teardown, print);
  } catch (error) {
    stop.dispose();
    await teardown.run();
    throw error;
  }
  const reason = await stop.reason;
  print(`\nStopping (${reason === 'duration' ? `${options.duration} elapsed` : reason})…`);
  const problems = await teardown.run();
  stop.dispose();
  for (const { step, problem } of problems)
    deps.stderr.write(`shortwatch demo: stopping ${step}: ${problem}\n`);
  print(summaryLine(demo, redis, options.out));
  return problems.length === 0 ? EXIT.ok : EXIT.failure;
}
