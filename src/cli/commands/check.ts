import type { App } from '../../app.js';
import type { Plan } from '../../budget/index.js';
import { type ConfigIssue, formatIssue, isConfigError } from '../../config/config-error.js';
import type { Config } from '../../config/schema.js';
import { isUnresolvedSecretError } from '../../config/unresolved-secret.js';
import { describeWatchlist, planFor } from '../../jobs/plan-for.js';
import {
  isWholeDirectory,
  resolveWatchlist,
  unlistedIds,
  type WatchedIssuer,
  watchEntries,
} from '../../jobs/watchlist.js';
import { holderStores } from '../../lookup/holder-lookup.js';
import { verifyChannel } from '../../preflight/channel-reach.js';
import { configIssues, directoryIssues } from '../../preflight/preflight.js';
import { inspectTopology } from '../../preflight/redis-topology.js';
import type { RegisterSnapshot } from '../../sources/types.js';
import { keyRoot } from '../../state/keys.js';
import { checkEvictionPolicy, describeEvictionPolicy } from '../../state/redis-eviction.js';
import { assertWritable } from '../../state/redis-writable.js';
import type { Issuer } from '../../upstream/index.js';
import { withBudgetWait } from '../budget-wait.js';
import type { CommandContext } from '../context.js';
import { withApp } from '../context.js';
import { describeFailure, EXIT } from '../exit.js';
import { describeChannelDuty } from './check-channels.js';
import { checkHolders } from './check-holders.js';
import { checkSources } from './check-sources.js';

/** Where notices go without an ops channel (state/notice-routing.ts), told by `check`. */
const NO_OPS_CHANNEL =
  'ops.channel: not set: critical notices (access revoked, nothing polled, deliveries parked) go to every channel but webhooks, the others to the log, `status` and /readyz only; name a channel for operators';

/** What `check` says of a config without `upstream`. */
const NO_UPSTREAM =
  'upstream: no upstream API configured: registers only (sources), no API sweep, no budget spent';

/** The config's summary line: what it watches, through how many channels. */
function describeConfig(config: Config): string {
  const channels = `${config.channels.length} channels`;
  if (config.upstream === undefined) return `${registers(config.sources.length)}, ${channels}`;
  const watched = isWholeDirectory(config.watchlist)
    ? 'watchlist all (the whole directory)'
    : `${config.watchlist.length} watched issuers`;
  const sources = config.sources.length > 0 ? `, ${registers(config.sources.length)}` : '';
  return `${watched}${sources}, ${channels}`;
}

function registers(count: number): string {
  return `${count} register ${count === 1 ? 'source' : 'sources'}`;
}

/** The lines `check` prints, and the exit code they add up to. */
interface CheckOutput {
  ok(what: string): void;
  /** Worth fixing, but shortwatch runs: not counted as a failure. */
  warn(what: string): void;
  /** A check that could not be made because of a problem already reported. */
  skip(what: string): void;
  /** A runtime failure (exit 1): Redis, a channel, the upstream. */
  fail(what: string): void;
  /** A problem `start` refuses (exit 2), at its key path. */
  problem(issue: ConfigIssue): void;
  exitCode(): number;
}

/**
 * `shortwatch check`: everything `start` would refuse, each problem at its key path with exit 2 (the same
 * checks, preflight/preflight.ts: secrets, cron patterns, the plan, watchlist names against the issuer
 * list); then whether Redis answers (and will not evict: a WARN line otherwise), whether each channel's
 * settings verify without sending (SMTP connect + AUTH, webhook URL shape), and — unless `--offline` —
 * whether each register source reads (check-sources.ts) and the upstream accepts the key (one request
 * from the interactive reserve). Exit 1 when only those fail.
 * Without `upstream` (registers only) there is no plan, key or issuer list to check: one line says so.
 */
export async function checkCommand(ctx: CommandContext, options: { offline?: boolean }): Promise<number> {
  const out = checkOutput(ctx.out, ctx.configFile);
  const problems = configIssues(ctx.config);
  const whole = isWholeDirectory(ctx.config.watchlist);
  if (problems.length === 0) out.ok(`config ${ctx.configFile}: ${describeConfig(ctx.config)}`);
  for (const issue of problems) out.problem(issue);
  if (problems.length === 0)
    for (const channel of ctx.config.channels)
      out.ok(`channel ${channel.name} gets: ${describeChannelDuty(channel, ctx.config)}`);
  if (ctx.config.ops.channel === undefined) out.warn(NO_OPS_CHANNEL);
  const plan = planOrUndefined(ctx);
  // A config that cannot plan cannot build the app: its problem is reported above.
  if (plan === undefined) return out.exitCode();
  if (ctx.config.upstream === undefined) out.ok(NO_UPSTREAM);
  // Under `all` the plan is for the directory's size: told once the issuer list is read.
  else if (!whole) out.ok(`plan: ${plan.summary[0] ?? 'fits the budget'}`);
  try {
    await withApp(ctx, (app) => checkWithApp(ctx, app, out, options));
  } catch (error) {
    if (!isUnresolvedSecretError(error)) throw error;
    out.skip(`redis, channels and upstream: ${error.problems.map((p) => p.path).join(', ')} is not set`);
  }
  return out.exitCode();
}

async function checkWithApp(
  ctx: CommandContext,
  app: App,
  out: CheckOutput,
  options: { offline?: boolean },
): Promise<void> {
  out.ok(`redis answers (prefix ${ctx.config.redis.prefix})`);
  const writable = await checkWrites(ctx, app, out);
  const eviction = await checkEvictionPolicy(app.redis);
  (eviction.state === 'noeviction' ? out.ok : out.warn)(describeEvictionPolicy(eviction));
  await checkTopology(ctx, app, out);
  await checkChannels(ctx.config, app, out);
  const reads = options.offline
    ? new Map<string, RegisterSnapshot>()
    : await checkSources(ctx.config.sources, out);
  // The upstream check spends from the budget's ledger, a write; the holders are read for a start that cannot run.
  if (!writable) {
    out.skip('upstream and filter holders: Redis takes no writes (above)');
    return;
  }
  const directory = await checkedDirectory(ctx, app, out, options);
  if (directory === undefined && isWholeDirectory(ctx.config.watchlist))
    out.warn(`plan: not made: ${describeWatchlist(ctx.config, null)}`);
  const watched =
    directory === undefined
      ? resolveWatchlist(ctx.config.watchlist, null).watched
      : checkWatchlist(ctx, directory, out);
  await checkHolders(ctx.config, holderStores(app.ctx), { watched, reads }, out);
}

/**
 * Every channel proven reachable without sending (preflight/channel-reach.ts), side by side so the
 * whole takes one channel's bound, then told in the config's order.
 */
async function checkChannels(config: Config, app: App, out: CheckOutput): Promise<void> {
  const verified = await Promise.all(
    config.channels.map(async (channel) => {
      const sender = app.settings.senders.get(channel.name);
      if (sender === undefined) return () => out.skip(`channel ${channel.name}: no sender`);
      try {
        const what = await verifyChannel(channel, sender);
        return () => out.ok(`channel ${channel.name}: ${what}`);
      } catch (error) {
        if (isUnresolvedSecretError(error))
          return () => out.skip(`channel ${channel.name}: not verified without its secret`);
        return () => out.fail(`channel ${channel.name}: ${describeFailure(error).message}`);
      }
    }),
  );
  for (const tell of verified) tell();
}

/** Whether Redis takes the deployment's writes, as `start` proves it first (state/redis-writable.ts). */
async function checkWrites(ctx: CommandContext, app: App, out: CheckOutput): Promise<boolean> {
  try {
    await assertWritable(app.redis, ctx.config.redis, keyRoot(ctx.config.redis.prefix));
    out.ok('redis takes writes (a script sets and deletes one key)');
    return true;
  } catch (error) {
    out.fail(describeFailure(error).message);
    return false;
  }
}

/** The topology reached (single, Sentinel, Cluster), each node's role, and what would lose data. */
async function checkTopology(ctx: CommandContext, app: App, out: CheckOutput): Promise<void> {
  try {
    const report = await inspectTopology(app.redis, ctx.config.redis);
    out.ok(`redis topology: ${report.summary}`);
    for (const node of report.nodes) {
      const line = `redis node ${node.address}: ${node.role}${node.note ? ` (${node.note})` : ''}`;
      (node.role === 'unreachable' ? out.warn : out.ok)(line);
    }
    for (const warning of report.warnings) out.warn(warning);
  } catch (error) {
    out.warn(`redis topology could not be inspected: ${describeFailure(error).message}`);
  }
}

/** The issuer list the watchlist is checked against, and what it came from. */
interface CheckedDirectory {
  issuers: readonly Issuer[];
  source: string;
}

/** The issuer list to check names against: none without an upstream, the saved one `--offline`. */
function checkedDirectory(
  ctx: CommandContext,
  app: App,
  out: CheckOutput,
  options: { offline?: boolean },
): Promise<CheckedDirectory | undefined> {
  const { upstream } = ctx.config;
  if (upstream === undefined) return Promise.resolve(undefined);
  return options.offline ? savedDirectory(app, out) : upstreamDirectory(ctx, upstream.baseUrl, app, out);
}

/** `--offline`: the issuer list the last sweep saved, if any. */
async function savedDirectory(app: App, out: CheckOutput): Promise<CheckedDirectory | undefined> {
  const saved = await app.ctx.directory.load();
  if (saved === null)
    out.warn('watchlist names not checked: --offline, and no sweep has saved the issuer list yet');
  return saved === null
    ? undefined
    : { issuers: saved.issuers, source: `the issuer list saved at ${saved.fetchedAt}` };
}

/** One `GET /issuers` with the interactive client: the key works, and the names are checked against it. */
async function upstreamDirectory(
  ctx: CommandContext,
  baseUrl: string,
  app: App,
  out: CheckOutput,
): Promise<CheckedDirectory | undefined> {
  const where = `upstream ${baseUrl}`;
  try {
    const list = await withBudgetWait(
      Boolean(ctx.options.wait),
      () => app.client('interactive').listIssuers(),
      ctx.out,
    );
    out.ok(`${where}: key accepted, ${list.data.length} issuers`);
    return { issuers: list.data, source: 'GET /issuers' };
  } catch (error) {
    if (isUnresolvedSecretError(error)) out.skip(`${where}: not asked without the API key`);
    else out.fail(`${where}: ${describeFailure(error).message}`);
    return undefined;
  }
}

/** The watchlist and the filters' issuers against the directory; the watched issuers it binds. */
function checkWatchlist(ctx: CommandContext, directory: CheckedDirectory, out: CheckOutput): WatchedIssuer[] {
  const { watchlist } = ctx.config;
  const { watched, issues } = directoryIssues(ctx.config, directory.issuers);
  for (const issue of issues) out.problem(issue);
  if (isWholeDirectory(watchlist)) {
    out.ok(`watchlist: ${describeWatchlist(ctx.config, directory)}`);
    if (issues.length === 0) {
      const plan = planFor(ctx.config, directory.issuers);
      out.ok(`plan for the directory's ${watched.length} issuers: ${plan.summary[0] ?? 'fits the budget'}`);
    }
    return watched;
  }
  for (const issuer of unlistedIds(watched, directory.issuers)) {
    out.warn(
      `watchlist id "${issuer.id}" is not in the upstream's issuer list (it left, or the id is wrong)`,
    );
  }
  const byName = watchEntries(watchlist).filter((entry) => 'name' in entry).length;
  if (issues.length === 0 && byName > 0) {
    out.ok(`watchlist: all ${byName} names resolve against the issuer list`);
  }
  return watched;
}

function planOrUndefined(ctx: CommandContext): Plan | undefined {
  try {
    return planFor(ctx.config);
  } catch (error) {
    if (isConfigError(error)) return undefined;
    throw error;
  }
}

function checkOutput(print: (text: string) => void, file: string): CheckOutput {
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
    exitCode: () => (problems > 0 ? EXIT.usage : failures > 0 ? EXIT.failure : EXIT.ok),
  };
}
