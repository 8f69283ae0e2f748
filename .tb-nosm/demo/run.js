import { relative } from "node:path";
import { CliError, EXIT } from "../cli/exit.js";
import { parseDuration } from "../config/duration.js";
import { createConsole } from "../console/handler.js";
import { sweepEvery } from "../jobs/schedulers.js";
import { startHttpServer } from "../ops/http-server.js";
import { acquireRedis } from "./acquire-redis.js";
import { bannerLines } from "./banner.js";
import { ChaosRun, DEMO_CHAOS_TIMING, startChaos } from "./chaos-run.js";
import { buildChaosSchedule, CHAOS_MODES } from "./chaos-schedule.js";
import { DEMO_CONFIG_FILE } from "./demo-config.js";
import { isRedisNotFoundError } from "./redis-not-found-error.js";
import { DEMO_STEP_MS, startDemo } from "./start-demo.js";
import { watchForStop } from "./stop-signal.js";
import { summaryLine } from "./summary.js";
import { Teardown } from "./teardown.js";
function processDeps() {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signals: process,
    exitNow: (code) => process.exit(code)
  };
}
function durationOf(text) {
  if (text === void 0) return void 0;
  const ms = parseDuration(text);
  if (ms === void 0 || ms <= 0)
    throw new CliError(`--duration: "${text}" is not a duration (e.g. 75s)`, EXIT.usage);
  return ms;
}
function banner(demo, redis, options, durationMs, consoleUrl) {
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
    redisStarted: redis.child !== void 0,
    prefix: demo.prefix,
    configFile: relative(process.cwd(), DEMO_CONFIG_FILE) || DEMO_CONFIG_FILE,
    channels: config.channels,
    opsChannel: config.ops.channel,
    out,
    durationMs,
    consoleUrl,
    ...options.chaos ? { chaos: { modes: CHAOS_MODES, ...DEMO_CHAOS_TIMING } } : {}
  });
}
async function startDemoConsole(demo, teardown) {
  const { server, port } = await startHttpServer(demo.app, 0, "127.0.0.1", createConsole(demo.app));
  teardown.add(
    "web console",
    () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    })
  );
  return `http://127.0.0.1:${port}/`;
}
function startDemoChaos(demo, teardown, print) {
  const { scenario } = demo.sandbox;
  const issuers = scenario.issuers().map((issuer) => ({
    id: issuer.svc_issuer_id,
    name: issuer.name,
    holders: scenario.active(issuer.svc_issuer_id)?.length ?? 0
  }));
  const run = new ChaosRun(demo.sandbox, buildChaosSchedule(issuers), print);
  const chaos = startChaos(run, DEMO_CHAOS_TIMING);
  teardown.add("chaos", async () => chaos.stop());
}
async function runDemo(options, deps = processDeps()) {
  const durationMs = durationOf(options.duration);
  deps.stdout.on("error", () => void 0);
  return runWithRedis(options, durationMs, deps);
}
async function runWithRedis(options, durationMs, deps) {
  const print = (line) => deps.stdout.write(`${line}
`);
  const stop = watchForStop(deps.signals, durationMs, () => deps.exitNow(EXIT.failure));
  let redis;
  try {
    redis = await acquireRedis(deps.env);
  } catch (error) {
    stop.dispose();
    if (!isRedisNotFoundError(error)) throw error;
    deps.stderr.write(`shortwatch demo: ${error.message}
`);
    return EXIT.failure;
  }
  const teardown = new Teardown();
  const child = redis.child;
  if (child) teardown.add("redis-server", () => child.stop());
  let demo;
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
  print(`
Stopping (${reason === "duration" ? `${options.duration} elapsed` : reason})\u2026`);
  const problems = await teardown.run();
  stop.dispose();
  for (const { step, problem } of problems)
    deps.stderr.write(`shortwatch demo: stopping ${step}: ${problem}
`);
  print(summaryLine(demo, redis, options.out));
  return problems.length === 0 ? EXIT.ok : EXIT.failure;
}
export {
  runDemo
};
