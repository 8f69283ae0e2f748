import { formatIssue, isConfigError } from "../../config/config-error.js";
import { isUnresolvedSecretError } from "../../config/unresolved-secret.js";
import { describeWatchlist, planFor } from "../../jobs/plan-for.js";
import {
  isWholeDirectory,
  resolveWatchlist,
  unlistedIds,
  watchEntries
} from "../../jobs/watchlist.js";
import { holderStores } from "../../lookup/holder-lookup.js";
import { verifyChannel } from "../../preflight/channel-reach.js";
import { configIssues, directoryIssues } from "../../preflight/preflight.js";
import { inspectTopology } from "../../preflight/redis-topology.js";
import { keyRoot } from "../../state/keys.js";
import { checkEvictionPolicy, describeEvictionPolicy } from "../../state/redis-eviction.js";
import { assertWritable } from "../../state/redis-writable.js";
import { withBudgetWait } from "../budget-wait.js";
import { withApp } from "../context.js";
import { describeFailure, EXIT } from "../exit.js";
import { describeChannelDuty } from "./check-channels.js";
import { checkHolders } from "./check-holders.js";
import { checkSources } from "./check-sources.js";
const NO_OPS_CHANNEL = "ops.channel: not set: critical notices (access revoked, nothing polled, deliveries parked) go to every channel but webhooks, the others to the log, `status` and /readyz only; name a channel for operators";
const NO_UPSTREAM = "upstream: no upstream API configured: registers only (sources), no API sweep, no budget spent";
function describeConfig(config) {
  const channels = `${config.channels.length} channels`;
  if (config.upstream === void 0) return `${registers(config.sources.length)}, ${channels}`;
  const watched = isWholeDirectory(config.watchlist) ? "watchlist all (the whole directory)" : `${config.watchlist.length} watched issuers`;
  const sources = config.sources.length > 0 ? `, ${registers(config.sources.length)}` : "";
  return `${watched}${sources}, ${channels}`;
}
function registers(count) {
  return `${count} register ${count === 1 ? "source" : "sources"}`;
}
async function checkCommand(ctx, options) {
  const out = checkOutput(ctx.out, ctx.configFile);
  const problems = configIssues(ctx.config);
  const whole = isWholeDirectory(ctx.config.watchlist);
  if (problems.length === 0) out.ok(`config ${ctx.configFile}: ${describeConfig(ctx.config)}`);
  for (const issue of problems) out.problem(issue);
  if (problems.length === 0)
    for (const channel of ctx.config.channels)
      out.ok(`channel ${channel.name} gets: ${describeChannelDuty(channel, ctx.config)}`);
  if (ctx.config.ops.channel === void 0) out.warn(NO_OPS_CHANNEL);
  const plan = planOrUndefined(ctx);
  if (plan === void 0) return out.exitCode();
  if (ctx.config.upstream === void 0) out.ok(NO_UPSTREAM);
  else if (!whole) out.ok(`plan: ${plan.summary[0] ?? "fits the budget"}`);
  try {
    await withApp(ctx, (app) => checkWithApp(ctx, app, out, options));
  } catch (error) {
    if (!isUnresolvedSecretError(error)) throw error;
    out.skip(`redis, channels and upstream: ${error.problems.map((p) => p.path).join(", ")} is not set`);
  }
  return out.exitCode();
}
async function checkWithApp(ctx, app, out, options) {
  out.ok(`redis answers (prefix ${ctx.config.redis.prefix})`);
  const writable = await checkWrites(ctx, app, out);
  const eviction = await checkEvictionPolicy(app.redis);
  (eviction.state === "noeviction" ? out.ok : out.warn)(describeEvictionPolicy(eviction));
  await checkTopology(ctx, app, out);
  await checkChannels(ctx.config, app, out);
  const reads = options.offline ? /* @__PURE__ */ new Map() : await checkSources(ctx.config.sources, out);
  if (!writable) {
    out.skip("upstream and filter holders: Redis takes no writes (above)");
    return;
  }
  const directory = await checkedDirectory(ctx, app, out, options);
  if (directory === void 0 && isWholeDirectory(ctx.config.watchlist))
    out.warn(`plan: not made: ${describeWatchlist(ctx.config, null)}`);
  const watched = directory === void 0 ? resolveWatchlist(ctx.config.watchlist, null).watched : checkWatchlist(ctx, directory, out);
  await checkHolders(ctx.config, holderStores(app.ctx), { watched, reads }, out);
}
async function checkChannels(config, app, out) {
  const verified = await Promise.all(
    config.channels.map(async (channel) => {
      const sender = app.settings.senders.get(channel.name);
      if (sender === void 0) return () => out.skip(`channel ${channel.name}: no sender`);
      try {
        const what = await verifyChannel(channel, sender);
        return () => out.ok(`channel ${channel.name}: ${what}`);
      } catch (error) {
        if (isUnresolvedSecretError(error))
          return () => out.skip(`channel ${channel.name}: not verified without its secret`);
        return () => out.fail(`channel ${channel.name}: ${describeFailure(error).message}`);
      }
    })
  );
  for (const tell of verified) tell();
}
async function checkWrites(ctx, app, out) {
  try {
    await assertWritable(app.redis, ctx.config.redis, keyRoot(ctx.config.redis.prefix));
    out.ok("redis takes writes (a script sets and deletes one key)");
    return true;
  } catch (error) {
    out.fail(describeFailure(error).message);
    return false;
  }
}
async function checkTopology(ctx, app, out) {
  try {
    const report = await inspectTopology(app.redis, ctx.config.redis);
    out.ok(`redis topology: ${report.summary}`);
    for (const node of report.nodes) {
      const line = `redis node ${node.address}: ${node.role}${node.note ? ` (${node.note})` : ""}`;
      (node.role === "unreachable" ? out.warn : out.ok)(line);
    }
    for (const warning of report.warnings) out.warn(warning);
  } catch (error) {
    out.warn(`redis topology could not be inspected: ${describeFailure(error).message}`);
  }
}
function checkedDirectory(ctx, app, out, options) {
  const { upstream } = ctx.config;
  if (upstream === void 0) return Promise.resolve(void 0);
  return options.offline ? savedDirectory(app, out) : upstreamDirectory(ctx, upstream.baseUrl, app, out);
}
async function savedDirectory(app, out) {
  const saved = await app.ctx.directory.load();
  if (saved === null)
    out.warn("watchlist names not checked: --offline, and no sweep has saved the issuer list yet");
  return saved === null ? void 0 : { issuers: saved.issuers, source: `the issuer list saved at ${saved.fetchedAt}` };
}
async function upstreamDirectory(ctx, baseUrl, app, out) {
  const where = `upstream ${baseUrl}`;
  try {
    const list = await withBudgetWait(
      Boolean(ctx.options.wait),
      () => app.client("interactive").listIssuers(),
      ctx.out
    );
    out.ok(`${where}: key accepted, ${list.data.length} issuers`);
    return { issuers: list.data, source: "GET /issuers" };
  } catch (error) {
    if (isUnresolvedSecretError(error)) out.skip(`${where}: not asked without the API key`);
    else out.fail(`${where}: ${describeFailure(error).message}`);
    return void 0;
  }
}
function checkWatchlist(ctx, directory, out) {
  const { watchlist } = ctx.config;
  const { watched, issues } = directoryIssues(ctx.config, directory.issuers);
  for (const issue of issues) out.problem(issue);
  if (isWholeDirectory(watchlist)) {
    out.ok(`watchlist: ${describeWatchlist(ctx.config, directory)}`);
    if (issues.length === 0) {
      const plan = planFor(ctx.config, directory.issuers);
      out.ok(`plan for the directory's ${watched.length} issuers: ${plan.summary[0] ?? "fits the budget"}`);
    }
    return watched;
  }
  for (const issuer of unlistedIds(watched, directory.issuers)) {
    out.warn(
      `watchlist id "${issuer.id}" is not in the upstream's issuer list (it left, or the id is wrong)`
    );
  }
  const byName = watchEntries(watchlist).filter((entry) => "name" in entry).length;
  if (issues.length === 0 && byName > 0) {
    out.ok(`watchlist: all ${byName} names resolve against the issuer list`);
  }
  return watched;
}
function planOrUndefined(ctx) {
  try {
    return planFor(ctx.config);
  } catch (error) {
    if (isConfigError(error)) return void 0;
    throw error;
  }
}
function checkOutput(print, file) {
  let failures = 0;
  let problems = 0;
  return {
    ok: (what) => print(`ok    ${what}`),
    warn: (what) => print(`WARN  ${what}`),
    skip: (what) => print(`skip  ${what}`),
    fail: (what) => {
      failures += 1;
      print(`FAIL  ${what}`);
    },
    problem: (issue) => {
      problems += 1;
      print(`FAIL  ${formatIssue(file, issue)}`);
    },
    exitCode: () => problems > 0 ? EXIT.usage : failures > 0 ? EXIT.failure : EXIT.ok
  };
}
export {
  checkCommand
};
