import { watch } from 'node:fs';
import type { App } from '../../app.js';
import { ConfigError } from '../../config/config-error.js';
import { formatDuration } from '../../config/duration.js';
import { loadConfig } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { collectSecrets } from '../../config/secret.js';
import { createConsole } from '../../console/handler.js';
import { sweepEvery } from '../../jobs/schedulers.js';
import { isWholeDirectory } from '../../jobs/watchlist.js';
import { startHttpServer } from '../../ops/http-server.js';
import { configIssues } from '../../preflight/preflight.js';
import type { Logger } from '../../telemetry/logger.js';
import { within } from '../../time/within.js';
import type { CommandContext } from '../context.js';
import { describeFailure } from '../exit.js';

/** How long a stuck process's stop waits for sends under way (a channel's send times out well within). */
const STUCK_STOP_MS = 5_000;

/**
 * How long a stuck process's whole stop may take before it exits anyway: the stop closes connections and
 * waits for a beat's duty that may be waiting on the very connections that are stuck (half-open ones
 * never answer), and a process that never exits is never restarted.
 */
const STUCK_EXIT_MS = 4 * STUCK_STOP_MS;

/** Options of `start` and `worker`. */
export interface DaemonOptions {
  workerOnly: boolean;
  watchConfig?: boolean;
  /** Grace period for jobs in flight on SIGTERM/SIGINT. */
  shutdownTimeoutMs?: number;
}

/**
 * `shortwatch start` (schedulers and workers) and `shortwatch worker` (workers only). Runs until
 * SIGTERM/SIGINT: stop taking jobs, finish those in flight (bounded), close everything, exit 0; a second
 * signal exits at once. SIGHUP or a changed file (with --watch-config) reloads the config.
 * A config `shortwatch check` would fail is refused with exit 2 before anything is registered: its own
 * problems before Redis is even opened, the watchlist names once the directory is known (App.startDaemon).
 */
export async function runDaemon(ctx: CommandContext, options: DaemonOptions): Promise<number> {
  refuseConfigIssues(ctx.config, ctx.configFile);
  const app = await ctx.openApp();
  const stopping = { now: false };
  const inputs: Array<() => void> = [];
  const closeInputs = () => {
    for (const close of inputs.splice(0)) close();
  };
  // Listening before the daemon starts: a process whose connections freeze while it starts (its start
  // then never ends) must exit for its supervisor all the same.
  const stuck = stuckExit(ctx.logger, app, stopping, closeInputs);
  const running = startRunning(app, options).then((http) => {
    if (http) inputs.push(() => http.server.close());
    process.on('SIGHUP', () => void reload(ctx, app, options, 'SIGHUP'));
    if (options.watchConfig) {
      const watcher = watchFile(ctx.configFile, () => void reload(ctx, app, options, 'file changed'));
      inputs.push(() => watcher.close());
    }
    return untilSignalled(ctx.logger, app, options, stopping, closeInputs);
  });
  return Promise.race([stuck, running]);
}

type Running = Awaited<ReturnType<typeof startHttpServer>> | undefined;

/** Starts the HTTP endpoints (when configured) and the daemon; a failed start closes what it opened. */
async function startRunning(app: App, options: DaemonOptions): Promise<Running> {
  const { config } = app.settings;
  let http: Running;
  try {
    // The port first: a taken port must stop start-up before any worker takes a job.
    if (config.http.port !== undefined)
      http = await startHttpServer(app, config.http.port, config.http.host, createConsole(app));
    await app.startDaemon({ workerOnly: options.workerOnly });
  } catch (error) {
    http?.server.close();
    await app.stop(1_000);
    throw error;
  }
  const { plan, watched } = app.settings;
  app.ctx.logger.info(
    {
      role: options.workerOnly ? 'worker' : 'start',
      watched: watched.length,
      channels: config.channels.map((c) => c.name),
      sources: config.sources.map((s) => s.name),
      ...(config.upstream === undefined
        ? { upstream: 'none: registers only, no API sweep' }
        : { sweepEvery: formatDuration(sweepEvery(plan)) }),
      http: http?.port,
    },
    'shortwatch running',
  );
  for (const line of plan.adjusted) app.ctx.logger.warn(`plan: ${line}`);
  return http;
}

/** Loads the config file again and swaps it in; a config that fails keeps the old one running. */
async function reload(ctx: CommandContext, app: App, options: DaemonOptions, why: string): Promise<void> {
  try {
    const next = loadConfig(ctx.configFile);
    refuseConfigIssues(next, ctx.configFile);
    // Before anything can log them: the new config's secrets join those the logger scrubs.
    collectSecrets(next, ctx.secrets);
    await app.reload(next, { workerOnly: options.workerOnly });
    const watched = isWholeDirectory(next.watchlist) ? 'all' : next.watchlist.length;
    ctx.logger.info({ why, watched, channels: next.channels.length }, 'config reloaded');
  } catch (error) {
    ctx.logger.error(
      { why, error: describeFailure(error).message },
      'config reload rejected; the old config keeps running',
    );
  }
}

/**
 * Resolves with the exit code once stopped by a signal: 0 after SIGTERM/SIGINT and a clean stop (a second
 * signal exits at once), 1 when the stop failed.
 */
function untilSignalled(
  logger: Logger,
  app: App,
  options: DaemonOptions,
  stopping: { now: boolean },
  closeInputs: () => void,
): Promise<number> {
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      if (stopping.now) {
        logger.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping.now = true;
      logger.info({ signal }, 'stopping: finishing jobs in flight');
      closeInputs();
      void app.stop(options.shutdownTimeoutMs ?? 10_000).then(
        () => {
          logger.info('stopped');
          resolve(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed; jobs in flight are recovered by another process');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}

/**
 * Resolves with 1 once the workers or the delivery path stayed stuck (src/ops/worker-liveness.ts) and the
 * process stopped, at most {@link STUCK_EXIT_MS} later, for the supervisor to restart it.
 */
function stuckExit(
  logger: Logger,
  app: App,
  stopping: { now: boolean },
  closeInputs: () => void,
): Promise<number> {
  return new Promise<number>((resolve) => {
    app.onWorkersDead(() => {
      if (stopping.now) return;
      stopping.now = true;
      closeInputs();
      // Long enough for a send under way to end and be recorded over the command connection.
      void within(app.stop(STUCK_STOP_MS), STUCK_EXIT_MS, 'stopping a stuck process')
        .catch((error: unknown) => logger.error({ err: error }, 'the stop did not end: exiting all the same'))
        .finally(() => resolve(1));
    });
  });
}

/** Throws the {@link ConfigError} of every problem `shortwatch check` would report in `config` itself. */
function refuseConfigIssues(config: Config, source: string): void {
  const problems = configIssues(config);
  if (problems.length > 0) throw new ConfigError(source, problems);
}

/** Calls `onChange` (debounced) when the file's content may have changed. */
function watchFile(path: string, onChange: () => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(path, () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, 300);
  });
  return { close: () => watcher.close() };
}
