import type { Queue } from 'bullmq';
import type { AccessState, RateBudget } from '../budget/index.js';
import { formatDuration } from '../config/duration.js';
import { channelStall, describeStall } from '../delivery/stall.js';
import type { Queues, Settings } from '../jobs/context.js';
import { describeOverdue, overdueAfterMs, overdueIssuers } from '../jobs/poll-health-report.js';
import { collectSources, type SourceStatus } from '../jobs/registers/source-status.js';
import { schedulerHealth, sweepEvery } from '../jobs/schedulers.js';
import { isWholeDirectory, resolveWatchlist, watchEntries } from '../jobs/watchlist.js';
import { round4 } from '../positions/index.js';
import type { IssuerDirectory } from '../state/directory.js';
import { stateKeys } from '../state/keys.js';
import type { ActiveNotice, Notices } from '../state/notices.js';
import type { Outbox } from '../state/outbox.js';
import type { IssuerHealth, PollHealth } from '../state/poll-health.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { SnapshotStore } from '../state/snapshot-store.js';
import { redisAnswers } from './liveness-tracker.js';
import {
  collectSubscribers,
  type SubscriberStatusStores,
  type SubscribersStatus,
} from './subscriber-status.js';

/** The stores `status` and `/readyz` read, each narrowed to what they read. */
interface StatusStores {
  /** The hash-tagged key root of the deployment (state/keys.ts). */
  prefix: string;
  redis: RedisClient;
  now: () => Date;
  access: Pick<AccessState, 'get'>;
  budget: Pick<RateBudget, 'usage' | 'spenders'>;
  notices: Pick<Notices, 'list'>;
  directory: Pick<IssuerDirectory, 'load'>;
  snapshots: Pick<SnapshotStore, 'getMany'>;
  pollHealth: Pick<PollHealth, 'all'>;
  outbox: Pick<Outbox, 'depth' | 'stagedCount' | 'oldestUndelivered'> & SubscriberStatusStores['outbox'];
  subscribers: SubscriberStatusStores['subscribers'];
}

/** What any process (a daemon, a CLI command) shows the deployment's state from: an App is one. */
export interface StatusSource {
  readonly ctx: StatusStores;
  readonly settings: Pick<Settings, 'config' | 'plan' | 'watched'>;
  readonly queues: Queues & { all(): readonly Queue[] };
  readonly redis: RedisClient;
}

/** The upstream API's access, as `status` shows it. */
export interface UpstreamStatus {
  access: 'ok' | 'unauthorized' | 'no-api-access';
  since: string | null;
  blockedUntil: string | null;
}

/** The shared budget of the upstream's credential, as `status` shows it. */
export interface BudgetStatus {
  minute: { used: number; left: number; cap: number; resetsAt: string };
  day: { used: number; left: number; cap: number; resetsAt: string };
  reserve: number;
  /** Why requests are held after a 429 (a code first, e.g. `rate-limited-day-probing: …`), or null. */
  blockedReason: string | null;
  /** After a 429 without Retry-After for the day window or none: one probe request every `every`. */
  probing: { window: string; every: string; since: string } | null;
  /** Other deployments (their `redis.prefix`) whose daemons spend the same API key's budget now. */
  sharedWith: string[];
}

/** Everything `shortwatch status` shows, as plain data (`--json` prints it as is). */
export interface StatusReport {
  generatedAt: string;
  /** null without `upstream` (registers only): no API is asked, so there is no access to tell. */
  upstream: UpstreamStatus | null;
  /** null without `upstream`: no budget is spent. */
  budget: BudgetStatus | null;
  plan: {
    gate: boolean;
    sweepEvery: string;
    gateIntervalMs: number;
    sweepIntervalMs: number;
    refreshesPerDay: number;
    requestsPerDay: number;
    summary: string[];
  };
  sweep: { lastSweepAt: string | null; datasetLastUpdated: string | null; lastDue: number | null };
  /**
   * `all`: the whole directory (`watchlist: all`), of `issuers` as last listed; else a list of `entries`,
   * bound to `issuers`, and the names among them the saved issuer list does not resolve.
   */
  watchlist: { all: boolean; issuers: number; entries: number; unresolved: string[] };
  /**
   * The hard bound (`plan.maxStalenessMs`: no watched issuer goes unpolled longer, even when the dataset
   * has not moved; null when `poll.maxStaleness` is off), and the watched issuer polled longest ago,
   * null before any poll.
   */
  bound: {
    every: string | null;
    boundMs: number | null;
    longest: { id: string; since: string; ageMs: number } | null;
  };
  issuers: Array<{
    id: string;
    name: string;
    lastPoll: string | null;
    holders: number;
    totalShort: number;
    /**
     * `ok`, `due` (waiting for its poll), `overdue`, `failing` (last poll failed), `not-found` (404 backoff),
     * or `stopped` (upstream access revoked: no issuer is polled).
     */
    health: 'ok' | 'due' | 'overdue' | 'failing' | 'not-found' | 'stopped';
    /** The latest failure's cause and how many in a row, or the 404 streak. */
    problem: string | null;
  }>;
  /** Issuers due longer than `poll.overdueAfter` without a successful poll, one line each. */
  overdue: string[];
  channels: Array<{
    name: string;
    kind: string;
    mode: string;
    waiting: number;
    delayed: number;
    active: number;
    failed: number;
    staged: number;
    /** Age of the oldest undelivered message (ready or in flight), null when none. */
    oldestUndeliveredMs: number | null;
    /** Older than `delivery.stalledAfter`: `/readyz` is not ready and `channel-stalled-<name>` is raised. */
    stalled: boolean;
  }>;
  /** `registered` is false until a `shortwatch start` process upserts the scheduler; `late` needs one. */
  schedulers: Array<{ id: string; registered: boolean; next: string | null; late: boolean }>;
  processes: Array<{ id: string; role: string; seenAt: string }>;
  /** The whole-register sources (`sources`): read, not read (with the reason), stale or never read. */
  sources: SourceStatus[];
  /** Subscribers and their outboxes, summed; null without a `subscribers` section. */
  subscribers: SubscribersStatus | null;
  notices: ActiveNotice[];
}

const PROCESS_FRESH_MS = 30_000;

/** How long `/readyz` waits for Redis to answer a ping before it says Redis does not answer. */
const READINESS_PING_MS = 1_000;

/** Reads the daemon's state from Redis: any process can answer for all of them. */
export async function collectStatus(app: StatusSource): Promise<StatusReport> {
  const { ctx } = app;
  const { config, plan } = app.settings;
  const now = ctx.now();
  const keys = stateKeys(ctx.prefix);
  const [api, sweep, notices, workers] = await Promise.all([
    readApi(app),
    ctx.redis.hgetall(keys.sweep),
    ctx.notices.list(),
    ctx.redis.hgetall(keys.workers),
  ]);
  const watch = await readWatched(app, now.getTime());
  return {
    generatedAt: now.toISOString(),
    upstream: api && upstreamSection(api.access, api.usage),
    budget: api && budgetSection(api.usage, api.otherSpenders),
    plan: planSection(plan),
    sweep: {
      lastSweepAt: sweep.lastSweepAt || null,
      datasetLastUpdated: sweep.lastUpdated || null,
      lastDue: sweep.lastDue ? Number(sweep.lastDue) : null,
    },
    watchlist: {
      all: isWholeDirectory(config.watchlist),
      issuers: watch.ids.length,
      entries: watchEntries(config.watchlist).length,
      unresolved: watch.unresolved,
    },
    bound: {
      every: Number.isFinite(plan.maxStalenessMs) ? formatDuration(plan.maxStalenessMs) : null,
      boundMs: Number.isFinite(plan.maxStalenessMs) ? plan.maxStalenessMs : null,
      longest: longestUnpolled(watch.ids, watch.snapshots, now.getTime()),
    },
    issuers: issuerRows(watch, api === null || api.access.state === 'ok'),
    overdue: watch.overdue.map((o) => describeOverdue(o, now.getTime())),
    channels: await channelRows(app, now.getTime()),
    schedulers: await schedulerRows(app, now.getTime()),
    processes: processRows(workers, now.getTime()),
    sources: await collectSources(ctx.redis, ctx.prefix, config.sources, now.getTime()),
    subscribers: config.subscribers ? await collectSubscribers(ctx, now.getTime()) : null,
    notices,
  };
}

/** The upstream's access and budget, read from Redis; null without `upstream` (nothing is read). */
async function readApi(app: StatusSource) {
  const { ctx } = app;
  const { config } = app.settings;
  if (config.upstream === undefined) return null;
  const [access, usage, spenders] = await Promise.all([
    ctx.access.get(),
    ctx.budget.usage(),
    ctx.budget.spenders.deployments(),
  ]);
  return { access, usage, otherSpenders: spenders.filter((d) => d !== config.redis.prefix) };
}

/** The watched issuers as status shows them: bound, their snapshots, poll health and who is overdue. */
async function readWatched(app: StatusSource, nowMs: number) {
  const { ctx } = app;
  const { config, plan, watched } = app.settings;
  // A CLI process never resolved the watchlist itself: bind names against the directory the sweeps saved.
  const directory = (await ctx.directory.load())?.issuers ?? null;
  const resolved = resolveWatchlist(config.watchlist, directory);
  const bound = directory !== null || watched.length === 0 ? resolved.watched : watched;
  const ids = bound.map((w) => w.id);
  const health = await ctx.pollHealth.all();
  return {
    ids,
    names: new Map(bound.map((w) => [w.id, w.name])),
    snapshots: await ctx.snapshots.getMany(ids),
    health,
    overdue: overdueIssuers(bound, health, nowMs, overdueAfterMs(config, plan)),
    unresolved: resolved.problems.map((problem) => problem.entry),
  };
}

type Usage = Awaited<ReturnType<StatusStores['budget']['usage']>>;

function upstreamSection(access: Awaited<ReturnType<StatusStores['access']['get']>>, usage: Usage) {
  return {
    access: access.state,
    since: access.state === 'ok' ? null : new Date(access.since).toISOString(),
    // Redis' time, like every instant of the shared budget: the same whichever process reports it.
    blockedUntil: usage.blockedUntil === null ? null : new Date(usage.blockedUntil).toISOString(),
  };
}

function budgetSection(usage: Usage, sharedWith: string[]): BudgetStatus {
  return {
    minute: { ...pick(usage.minute), resetsAt: new Date(usage.minute.resetAt).toISOString() },
    day: { ...pick(usage.day), resetsAt: new Date(usage.day.resetAt).toISOString() },
    reserve: usage.reserve,
    blockedReason: usage.blockedReason,
    probing: usage.probing && {
      window: usage.probing.window,
      every: formatDuration(usage.probing.everyMs),
      since: new Date(usage.probing.since).toISOString(),
    },
    sharedWith,
  };
}

function planSection(plan: StatusSource['settings']['plan']): StatusReport['plan'] {
  return {
    gate: plan.gate,
    sweepEvery: formatDuration(sweepEvery(plan)),
    gateIntervalMs: plan.gateIntervalMs,
    sweepIntervalMs: plan.sweepIntervalMs,
    refreshesPerDay: plan.refreshesPerDay,
    requestsPerDay: plan.requestsPerDay,
    summary: plan.summary,
  };
}

function issuerRows(
  watch: Awaited<ReturnType<typeof readWatched>>,
  accessOk: boolean,
): StatusReport['issuers'] {
  const overdueIds = new Set(watch.overdue.map((o) => o.id));
  return watch.ids.map((id) => {
    const snapshot = watch.snapshots.get(id);
    const positions = Object.values(snapshot?.positions ?? {});
    return {
      id,
      name: snapshot?.issuerName ?? watch.names.get(id) ?? id,
      lastPoll: snapshot?.polledAt ?? null,
      holders: positions.length,
      totalShort: round4(positions.reduce((sum, p) => sum + p.value, 0)),
      ...(accessOk
        ? issuerHealth(watch.health.get(id), overdueIds.has(id))
        : { health: 'stopped' as const, problem: 'upstream access revoked' }),
    };
  });
}

function channelRows(app: StatusSource, nowMs: number): Promise<StatusReport['channels']> {
  const { outbox } = app.ctx;
  return Promise.all(
    app.settings.config.channels.map(async (channel) => {
      const depth = await outbox.depth(channel.name, nowMs);
      const oldest = await outbox.oldestUndelivered(channel.name, nowMs);
      const stall = channelStall(oldest, nowMs, app.settings.config.delivery.stalledAfter);
      return {
        name: channel.name,
        kind: channel.kind,
        mode: channel.mode,
        // Outbox items: ready to send now, held back (quiet hours), being sent, parked (dead letter).
        waiting: depth.ready,
        delayed: depth.waiting - depth.ready,
        active: depth.inflight,
        failed: depth.parked,
        staged: channel.mode === 'digest' ? await outbox.stagedCount(channel.name) : 0,
        oldestUndeliveredMs: stall.ageMs,
        stalled: stall.stalled,
      };
    }),
  );
}

async function schedulerRows(app: StatusSource, nowMs: number): Promise<StatusReport['schedulers']> {
  const schedulers = await schedulerHealth(app.queues, app.settings.config, nowMs);
  return schedulers.map((s) => ({
    id: s.id,
    registered: s.registered,
    next: s.next ? new Date(s.next).toISOString() : null,
    late: s.late,
  }));
}

function processRows(workers: Record<string, string>, nowMs: number): StatusReport['processes'] {
  return Object.entries(workers).flatMap(([id, raw]) => {
    const record = parseProcess(raw);
    if (!record || nowMs - Date.parse(record.seenAt) > PROCESS_FRESH_MS) return [];
    return [{ id, role: record.role, seenAt: record.seenAt }];
  });
}

/** The watched issuer whose last poll is oldest (issuers never polled are left to the `due` rows). */
function longestUnpolled(
  ids: readonly string[],
  snapshots: ReadonlyMap<string, { polledAt: string } | undefined>,
  nowMs: number,
): StatusReport['bound']['longest'] {
  let longest: StatusReport['bound']['longest'] = null;
  for (const id of ids) {
    const since = snapshots.get(id)?.polledAt;
    if (since === undefined) continue;
    const ageMs = nowMs - Date.parse(since);
    if (longest === null || ageMs > longest.ageMs) longest = { id, since, ageMs };
  }
  return longest;
}

function issuerHealth(
  h: IssuerHealth | undefined,
  overdue: boolean,
): { health: StatusReport['issuers'][number]['health']; problem: string | null } {
  if (h?.notFound) {
    const retry = new Date(h.notFound.retryAt).toISOString();
    return {
      health: 'not-found',
      problem: `404 × ${h.notFound.count} since ${h.notFound.since}; next try ${retry}`,
    };
  }
  const nextTry = h?.failing?.retryAt ?? h?.lagging?.retryAt;
  const next = nextTry === undefined ? '' : `; next try ${new Date(nextTry).toISOString()}`;
  const problem = h?.failing
    ? `${h.failing.cause} × ${h.failing.count} since ${h.failing.since}${next}`
    : h?.lagging
      ? `lagging × ${h.lagging.count} since ${h.lagging.since} (answers data of ${h.lagging.answered}, list ${h.lagging.expected})${next}`
      : null;
  if (overdue) return { health: 'overdue', problem };
  if (h?.failing) return { health: 'failing', problem };
  return { health: h?.dueSince ? 'due' : 'ok', problem };
}

function pick(window: { used: number; left: number; cap: number }) {
  return { used: window.used, left: window.left, cap: window.cap };
}

function parseProcess(raw: string): { role: string; seenAt: string } | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && 'role' in value && 'seenAt' in value) {
      return { role: String(value.role), seenAt: String(value.seenAt) };
    }
  } catch {
    // A malformed entry is a dead process as far as status is concerned.
  }
  return null;
}

/** What keeps the API's polling from readiness: access revoked, no recent sweep, issuers overdue. */
async function pollingReasons(app: StatusSource): Promise<string[]> {
  const reasons: string[] = [];
  const access = await app.ctx.access.get();
  if (access.state !== 'ok') reasons.push(`upstream access revoked (${access.state})`);
  const { config, plan, watched } = app.settings;
  const overdue = overdueIssuers(
    watched,
    await app.ctx.pollHealth.all(),
    app.ctx.now().getTime(),
    overdueAfterMs(config, plan),
  );
  const lastSweepAt = await app.redis.hget(stateKeys(app.ctx.prefix).sweep, 'lastSweepAt');
  const sinceSweep = app.ctx.now().getTime() - (lastSweepAt ? Date.parse(lastSweepAt) : Number.NaN);
  if (sinceSweep > overdueAfterMs(config, plan) + sweepEvery(plan))
    reasons.push(`polling degraded: no successful sweep since ${lastSweepAt}`);
  if (overdue.length > 0) {
    const ids = overdue.map((o) => o.id);
    const shown =
      ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
    reasons.push(`polling degraded: ${overdue.length} issuers overdue (${shown})`);
  }
  return reasons;
}

/** One readiness reason per channel whose oldest undelivered message is older than `delivery.stalledAfter`. */
async function stalledChannels(app: StatusSource): Promise<string[]> {
  const { config } = app.settings;
  const now = app.ctx.now().getTime();
  const reasons: string[] = [];
  for (const channel of config.channels) {
    const oldest = await app.ctx.outbox.oldestUndelivered(channel.name, now);
    const stall = channelStall(oldest, now, config.delivery.stalledAfter);
    if (stall.stalled && stall.ageMs !== null)
      reasons.push(describeStall(channel.name, stall.ageMs, config.delivery.stalledAfter));
  }
  return reasons;
}

/**
 * Readiness: Redis answers, upstream access is not revoked, no watched issuer is overdue for its poll,
 * the schedulers exist and are on time, no channel is stalled (`delivery.stalledAfter`), and no register
 * source is stale. Without `upstream` (registers only) nothing of the API is judged: Redis, the channels,
 * the schedulers and the sources.
 * `notices` lists the operator problems going on, so they reach a probe even when the ops channel cannot.
 */
export async function readiness(
  app: StatusSource,
): Promise<{ ready: boolean; reasons: string[]; notices: string[] }> {
  const reasons: string[] = [];
  // Bounded: during a failover ioredis queues the ping until it reconnects, and a probe that hangs
  // (Kubernetes gives one 1 s by default) says nothing; an outage must read as not ready.
  if (!(await redisAnswers(app.redis, READINESS_PING_MS))) {
    return { ready: false, reasons: ['redis does not answer'], notices: [] };
  }
  const { config } = app.settings;
  if (config.upstream !== undefined) reasons.push(...(await pollingReasons(app)));
  reasons.push(...(await stalledChannels(app)));
  const schedulers = await schedulerHealth(app.queues, app.settings.config, app.ctx.now().getTime());
  for (const s of schedulers)
    if (s.late || !s.registered) reasons.push(`scheduler ${s.id} is missing or late`);
  const sources = await collectSources(app.redis, app.ctx.prefix, config.sources, app.ctx.now().getTime());
  for (const s of sources)
    if (s.state === 'stale')
      reasons.push(
        `register ${s.name} stale: no good read since ${s.lastGoodAt ?? 'start'}${s.reason ? ` (${s.reason})` : ''}`,
      );
  const notices = (await app.ctx.notices.list()).map((n) => `${n.severity}: ${n.title}`);
  return { ready: reasons.length === 0, reasons, notices };
}
