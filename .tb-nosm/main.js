#!/usr/bin/env node
import { Command, CommanderError, Option } from "commander";
import { checkCommand } from "./cli/commands/check.js";
import { runDaemon } from "./cli/commands/daemon.js";
import { exportCommand } from "./cli/commands/deliveries-export.js";
import { deliveriesCommand, retryCommand, routeCommand, testNotifyCommand } from "./cli/commands/delivery.js";
import { muteCommand, mutesCommand, unmuteCommand } from "./cli/commands/mutes.js";
import { sandboxCommand } from "./cli/commands/sandbox.js";
import { eventsCommand, planCommand, resumeCommand, statusCommand } from "./cli/commands/state.js";
import { issuersCommand, positionsCommand } from "./cli/commands/upstream.js";
import { commandContext } from "./cli/context.js";
import { describeFailure, EXIT } from "./cli/exit.js";
import { addSubscriberCommands } from "./cli/subscriber-commands.js";
function buildProgram(setExit) {
  const program = new Command("shortwatch").description(
    "Watches disclosed net short positions and alerts traders in Slack and by email: at least once, each message under a stable id."
  ).option("-c, --config <path>", "config file (default: $SHORTWATCH_CONFIG or config/shortwatch.yaml)").option("--wait", "when the rate budget is empty, wait for the next token instead of exiting 1").showHelpAfterError("(run shortwatch --help for usage)").exitOverride();
  const run = (action) => async () => {
    const options = program.opts();
    setExit(await action(commandContext(options)) ?? EXIT.ok);
  };
  addUpstreamCommands(program, run);
  addDaemonCommands(program, run);
  addStateCommands(program, run);
  addDeliveryCommands(program, run);
  addMuteCommands(program, run);
  addSubscriberCommands(program, run);
  addToolCommands(program, setExit);
  return program;
}
function addUpstreamCommands(program, run) {
  program.command("check").description("validate the config, verify channels and Redis without sending, and test the upstream key").option("--offline", "skip the upstream request").action((opts) => run((ctx) => checkCommand(ctx, opts))());
  program.command("plan").description("print the polling plan that fits the rate budget").action(() => run((ctx) => planCommand(ctx))());
  program.command("issuers").description("list the upstream issuers").option("--search <text>", "only issuers whose name or id contains TEXT").action((opts) => run((ctx) => issuersCommand(ctx, opts).then(() => EXIT.ok))());
  program.command("positions <issuer>").description(
    "print one issuer's disclosed short positions (an id, a name or part of one, or a watchlist label)"
  ).option("--all", "the full history instead of the active positions").option(
    "--as-of <time>",
    "what shortwatch had seen at TIME (a date-time, a date: its end, or a duration ago such as 2d), from its own state, with when it first saw each position: no upstream request"
  ).action(
    (issuer, opts) => run((ctx) => positionsCommand(ctx, issuer, opts).then(() => EXIT.ok))()
  );
}
function addDaemonCommands(program, run) {
  program.command("start").description("run the daemon: job schedulers and workers").option("--watch-config", "reload when the config file changes").action(
    (opts) => run((ctx) => runDaemon(ctx, { workerOnly: false, ...opts }))()
  );
  program.command("worker").description("run workers only, sharing Redis with a `start` process elsewhere").option("--watch-config", "reload when the config file changes").action(
    (opts) => run((ctx) => runDaemon(ctx, { workerOnly: true, ...opts }))()
  );
}
function addStateCommands(program, run) {
  program.command("status").description("access, budget, plan, issuers, channels, schedulers and processes").option("--json", "machine-readable output").action((opts) => run((ctx) => statusCommand(ctx, opts).then(() => EXIT.ok))());
  program.command("resume [issuer]").description(
    "resume polling: after a 401/403 once the key or plan is fixed; with ISSUER, ask an issuer that answered 404 (or whose snapshot is unreadable) again at the next sweep"
  ).action((issuer) => run((ctx) => resumeCommand(ctx, issuer).then(() => EXIT.ok))());
  program.command("events [issuer]").description("the latest detected events, newest first").option("--limit <n>", "how many (a whole number, at least 1)", "20").option("--json", "machine-readable output").option(
    "--as-of <time>",
    "only events shortwatch had seen by TIME (detected then or before; a date-time, a date: its end, or a duration ago)"
  ).action(
    (issuer, opts) => run((ctx) => eventsCommand(ctx, issuer, opts).then(() => EXIT.ok))()
  );
  program.command("route").description("which channels an event would reach, and why the others would not").requiredOption("--issuer <issuer>", "issuer id, name or watchlist label").requiredOption("--holder <holder>", "holder name").requiredOption("--kind <kind>", "opened, increased, decreased or closed").requiredOption("--value <percent>", "the value after the change, 0 to 100").option("--previous <percent>", "the value before the change, 0 to 100").action(
    (opts) => run((ctx) => routeCommand(ctx, opts).then(() => EXIT.ok))()
  );
}
function addDeliveryCommands(program, run) {
  const deliveries = program.command("deliveries").description("queued and parked deliveries").option("--failed", "only parked (failed) deliveries").action((opts) => run((ctx) => deliveriesCommand(ctx, opts).then(() => EXIT.ok))());
  deliveries.command("retry [job]").description("send parked deliveries again").option("--all", "every parked delivery").option("--channel <name>", "only this channel").action(
    (job, opts) => run((ctx) => retryCommand(ctx, job, opts).then(() => EXIT.ok))()
  );
  deliveries.command("export").description("the record of sent messages, one row per attempt: CSV (RFC 4180) or JSON Lines on stdout").requiredOption("--since <when>", "from: a date (UTC), an ISO date-time, or a duration ago (7d)").option("--until <when>", "to (a date takes in the whole day); default now").option("--channel <name>", "only this channel").option("--issuer <issuer>", "only messages about this issuer (id, or words of its name)").option("--holder <holder>", "only messages naming this holder (any spelling, or a word of its name)").option(
    "--as-of <when>",
    "what had been told by then (as --until; each row carries its events' disclosed_on and first_seen)"
  ).option("--format <format>", "csv or jsonl", "csv").action((opts) => run((ctx) => exportCommand(ctx, opts).then(() => EXIT.ok))());
  program.command("test-notify <channel>").description("send a clearly marked sample message to one channel").action((channel) => run((ctx) => testNotifyCommand(ctx, channel).then(() => EXIT.ok))());
}
function addMuteCommands(program, run) {
  program.command("mute <scope> <name>").description("mute a holder or an issuer for a while (scope: holder|issuer)").requiredOption("--for <duration>", "how long, e.g. 7d or 12h").option("--channel <name>", "only on this channel").option("--reason <text>", "why, for the record").option("--digests", "keep it out of digests too").action(
    (scope, name, opts) => run((ctx) => muteCommand(ctx, scope, name, opts).then(() => EXIT.ok))()
  );
  program.command("unmute <scope> <name>").description("remove a mute").option("--channel <name>", "the channel the mute was for").action(
    (scope, name, opts) => run((ctx) => unmuteCommand(ctx, scope, name, opts).then(() => EXIT.ok))()
  );
  program.command("mutes").description("mutes in force and suppressed counts").action(() => run((ctx) => mutesCommand(ctx).then(() => EXIT.ok))());
}
function addToolCommands(program, setExit) {
  program.command("sandbox").description("run the upstream simulator (no API key needed; key: sandbox-key)").option("--port <n>", "port", "8080").option("--host <host>", "interface", "127.0.0.1").option("--seed <n>", "scenario seed", "1").option("--issuers <n>", "number of issuers", "12").option("--scenario <file>", "load a scenario file (JSON or YAML) instead").option("--step-every <duration>", "advance the scenario on a timer, e.g. 5s").option(
    "--publish [time]",
    "each issuer changes at its own rate (a real register's skew), published at this time (HH:MM, default 15:30 Europe/Amsterdam) on business days"
  ).option(
    "--day-length <duration>",
    "a shorter day for --publish and the rate limits, e.g. 60s (minute = day / 1440)"
  ).addOption(new Option("--per-minute <n>", "per-minute cap")).addOption(new Option("--per-day <n>", "per-day cap")).action(async (opts) => setExit(await sandboxCommand(opts, (text) => process.stdout.write(`${text}
`))));
  program.command("demo").description("sandbox + daemon + local Slack and SMTP capture; alerts within seconds").option("--out <dir>", "where captured messages are written", "demo-out").option("--duration <duration>", "stop by itself after this long (default: run until Ctrl-C)").option(
    "--chaos",
    "the sandbox misbehaves in turn (null, lagging or backwards last_updated, wrong issuer, \u2026)"
  ).option("--registers", "also read two register files (AFM and FCA ANSP formats) replayed with changes").action(async (opts) => {
    const { runDemo } = await import("./demo/run.js");
    setExit(await runDemo(opts));
  });
}
async function main(argv) {
  let exitCode = EXIT.ok;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const { message, exitCode: code } = describeFailure(error);
    process.stderr.write(`shortwatch: ${message}
`);
    return code;
  }
}
const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/"));
if (invokedDirectly || process.env.SHORTWATCH_MAIN === "1") {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      setTimeout(() => process.exit(code), 200).unref();
    },
    (error) => {
      process.stderr.write(`shortwatch: ${String(error)}
`);
      process.exit(EXIT.failure);
    }
  );
}
export {
  buildProgram,
  main
};
