import { watch } from "node:fs";
import { ConfigError } from "../../config/config-error.js";
import { formatDuration } from "../../config/duration.js";
import { loadConfig } from "../../config/load.js";
import { collectSecrets } from "../../config/secret.js";
import { createConsole } from "../../console/handler.js";
import { sweepEvery } from "../../jobs/schedulers.js";
import { isWholeDirectory } from "../../jobs/watchlist.js";
import { startHttpServer } from "../../ops/http-server.js";
import { configIssues } from "../../preflight/preflight.js";
import { describeFailure } from "../exit.js";
const STUCK_STOP_MS = 5e3;
async function runDaemon(ctx, options) {
  refuseConfigIssues(ctx.config, ctx.configFile);
  const app = await ctx.openApp();
  const http = await startRunning(app, options);
  process.on("SIGHUP", () => void reload(ctx, app, options, "SIGHUP"));
  const watcher = options.watchConfig ? watchFile(ctx.configFile, () => void reload(ctx, app, options, "file changed")) : void 0;
  return untilStopped(ctx.logger, app, options, () => {
    watcher?.close();
    http?.server.close();
  });
}
async function startRunning(app, options) {
  const { config } = app.settings;
  let http;
  try {
    if (config.http.port !== void 0)
      http = await startHttpServer(app, config.http.port, config.http.host, createConsole(app));
    await app.startDaemon({ workerOnly: options.workerOnly });
  } catch (error) {
    http?.server.close();
    await app.stop(1e3);
    throw error;
  }
  const { plan, watched } = app.settings;
  app.ctx.logger.info(
    {
      role: options.workerOnly ? "worker" : "start",
      watched: watched.length,
      channels: config.channels.map((c) => c.name),
      sources: config.sources.map((s) => s.name),
      ...config.upstream === void 0 ? { upstream: "none: registers only, no API sweep" } : { sweepEvery: formatDuration(sweepEvery(plan)) },
      http: http?.port
    },
    "shortwatch running"
  );
  for (const line of plan.adjusted) app.ctx.logger.warn(`plan: ${line}`);
  return http;
}
async function reload(ctx, app, options, why) {
  try {
    const next = loadConfig(ctx.configFile);
    refuseConfigIssues(next, ctx.configFile);
    collectSecrets(next, ctx.secrets);
    await app.reload(next, { workerOnly: options.workerOnly });
    const watched = isWholeDirectory(next.watchlist) ? "all" : next.watchlist.length;
    ctx.logger.info({ why, watched, channels: next.channels.length }, "config reloaded");
  } catch (error) {
    ctx.logger.error(
      { why, error: describeFailure(error).message },
      "config reload rejected; the old config keeps running"
    );
  }
}
function untilStopped(logger, app, options, closeInputs) {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal) => {
      if (stopping) {
        logger.warn({ signal }, "second signal: exiting now");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, "stopping: finishing jobs in flight");
      closeInputs();
      void app.stop(options.shutdownTimeoutMs ?? 1e4).then(
        () => {
          logger.info("stopped");
          resolve(0);
        },
        (error) => {
          logger.error({ err: error }, "shutdown failed; jobs in flight are recovered by another process");
          resolve(1);
        }
      );
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
    app.onWorkersDead(() => {
      if (stopping) return;
      stopping = true;
      closeInputs();
      void app.stop(STUCK_STOP_MS).finally(() => resolve(1));
    });
  });
}
function refuseConfigIssues(config, source) {
  const problems = configIssues(config);
  if (problems.length > 0) throw new ConfigError(source, problems);
}
function watchFile(path, onChange) {
  let timer;
  const watcher = watch(path, () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, 300);
  });
  return { close: () => watcher.close() };
}
export {
  runDaemon
};
