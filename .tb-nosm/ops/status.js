import { formatDuration } from "../config/duration.js";
import { channelStall, describeStall } from "../delivery/stall.js";
import { describeOverdue, overdueAfterMs, overdueIssuers } from "../jobs/poll-health-report.js";
import { collectSources } from "../jobs/registers/source-status.js";
import { schedulerHealth, sweepEvery } from "../jobs/schedulers.js";
import { isWholeDirectory, resolveWatchlist, watchEntries } from "../jobs/watchlist.js";
import { round4 } from "../positions/index.js";
import { stateKeys } from "../state/keys.js";
import { redisAnswers } from "./liveness-tracker.js";
import {
  collectSubscribers
} from "./subscriber-status.js";
const PROCESS_FRESH_MS = 3e4;
const READINESS_PING_MS = 1e3;
async function collectStatus(app) {
  const { ctx } = app;
  const { config, plan } = app.settings;
  const now = ctx.now();
  const keys = stateKeys(ctx.prefix);
  const [api, sweep, notices, workers] = await Promise.all([
    readApi(app),
    ctx.redis.hgetall(keys.sweep),
    ctx.notices.list(),
    ctx.redis.hgetall(keys.workers)
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
      lastDue: sweep.lastDue ? Number(sweep.lastDue) : null
    },
    watchlist: {
      all: isWholeDirectory(config.watchlist),
      issuers: watch.ids.length,
      entries: watchEntries(config.watchlist).length,
      unresolved: watch.unresolved
    },
    bound: {
      every: Number.isFinite(plan.maxStalenessMs) ? formatDuration(plan.maxStalenessMs) : null,
      boundMs: Number.isFinite(plan.maxStalenessMs) ? plan.maxStalenessMs : null,
      longest: longestUnpolled(watch.ids, watch.snapshots, now.getTime())
    },
    issuers: issuerRows(watch, api === null || api.access.state === "ok"),
    overdue: watch.overdue.map((o) => describeOverdue(o, now.getTime())),
    channels: await channelRows(app, now.getTime()),
    schedulers: await schedulerRows(app, now.getTime()),
    processes: processRows(workers, now.getTime()),
    sources: await collectSources(ctx.redis, ctx.prefix, config.sources, now.getTime()),
    subscribers: config.subscribers ? await collectSubscribers(ctx, now.getTime()) : null,
    notices
  };
}
async function readApi(app) {
  const { ctx } = app;
  const { config } = app.settings;
  if (config.upstream === void 0) return null;
  const [access, usage, spenders] = await Promise.all([
    ctx.access.get(),
    ctx.budget.usage(),
    ctx.budget.spenders.deployments()
  ]);
  return { access, usage, otherSpenders: spenders.filter((d) => d !== config.redis.prefix) };
}
async function readWatched(app, nowMs) {
  const { ctx } = app;
  const { config, plan, watched } = app.settings;
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
    unresolved: resolved.problems.map((problem) => problem.entry)
  };
}
function upstreamSection(access, usage) {
  return {
    access: access.state,
    since: access.state === "ok" ? null : new Date(access.since).toISOString(),
    // Redis' time, like every instant of the shared budget: the same whichever process reports it.
    blockedUntil: usage.blockedUntil === null ? null : new Date(usage.blockedUntil).toISOString()
  };
}
function budgetSection(usage, sharedWith) {
  return {
    minute: { ...pick(usage.minute), resetsAt: new Date(usage.minute.resetAt).toISOString() },
    day: { ...pick(usage.day), resetsAt: new Date(usage.day.resetAt).toISOString() },
    reserve: usage.reserve,
    blockedReason: usage.blockedReason,
    probing: usage.probing && {
      window: usage.probing.window,
      every: formatDuration(usage.probing.everyMs),
      since: new Date(usage.probing.since).toISOString()
    },
    sharedWith
  };
}
function planSection(plan) {
  return {
    gate: plan.gate,
    sweepEvery: formatDuration(sweepEvery(plan)),
    gateIntervalMs: plan.gateIntervalMs,
    sweepIntervalMs: plan.sweepIntervalMs,
    refreshesPerDay: plan.refreshesPerDay,
    requestsPerDay: plan.requestsPerDay,
    summary: plan.summary
  };
}
function issuerRows(watch, accessOk) {
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
      ...accessOk ? issuerHealth(watch.health.get(id), overdueIds.has(id)) : { health: "stopped", problem: "upstream access revoked" }
    };
  });
}
function channelRows(app, nowMs) {
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
        staged: channel.mode === "digest" ? await outbox.stagedCount(channel.name) : 0,
        oldestUndeliveredMs: stall.ageMs,
        stalled: stall.stalled
      };
    })
  );
}
async function schedulerRows(app, nowMs) {
  const schedulers = await schedulerHealth(app.queues, app.settings.config, nowMs);
  return schedulers.map((s) => ({
    id: s.id,
    registered: s.registered,
    next: s.next ? new Date(s.next).toISOString() : null,
    late: s.late
  }));
}
function processRows(workers, nowMs) {
  return Object.entries(workers).flatMap(([id, raw]) => {
    const record = parseProcess(raw);
    if (!record || nowMs - Date.parse(record.seenAt) > PROCESS_FRESH_MS) return [];
    return [{ id, role: record.role, seenAt: record.seenAt }];
  });
}
function longestUnpolled(ids, snapshots, nowMs) {
  let longest = null;
  for (const id of ids) {
    const since = snapshots.get(id)?.polledAt;
    if (since === void 0) continue;
    const ageMs = nowMs - Date.parse(since);
    if (longest === null || ageMs > longest.ageMs) longest = { id, since, ageMs };
  }
  return longest;
}
function issuerHealth(h, overdue) {
  if (h?.notFound) {
    const retry = new Date(h.notFound.retryAt).toISOString();
    return {
      health: "not-found",
      problem: `404 \xD7 ${h.notFound.count} since ${h.notFound.since}; next try ${retry}`
    };
  }
  const nextTry = h?.failing?.retryAt ?? h?.lagging?.retryAt;
  const next = nextTry === void 0 ? "" : `; next try ${new Date(nextTry).toISOString()}`;
  const problem = h?.failing ? `${h.failing.cause} \xD7 ${h.failing.count} since ${h.failing.since}${next}` : h?.lagging ? `lagging \xD7 ${h.lagging.count} since ${h.lagging.since} (answers data of ${h.lagging.answered}, list ${h.lagging.expected})${next}` : null;
  if (overdue) return { health: "overdue", problem };
  if (h?.failing) return { health: "failing", problem };
  return { health: h?.dueSince ? "due" : "ok", problem };
}
function pick(window) {
  return { used: window.used, left: window.left, cap: window.cap };
}
function parseProcess(raw) {
  try {
    const value = JSON.parse(raw);
    if (value && typeof value === "object" && "role" in value && "seenAt" in value) {
      return { role: String(value.role), seenAt: String(value.seenAt) };
    }
  } catch {
  }
  return null;
}
async function pollingReasons(app) {
  const reasons = [];
  const access = await app.ctx.access.get();
  if (access.state !== "ok") reasons.push(`upstream access revoked (${access.state})`);
  const { config, plan, watched } = app.settings;
  const overdue = overdueIssuers(
    watched,
    await app.ctx.pollHealth.all(),
    app.ctx.now().getTime(),
    overdueAfterMs(config, plan)
  );
  const lastSweepAt = await app.redis.hget(stateKeys(app.ctx.prefix).sweep, "lastSweepAt");
  const sinceSweep = app.ctx.now().getTime() - (lastSweepAt ? Date.parse(lastSweepAt) : Number.NaN);
  if (sinceSweep > overdueAfterMs(config, plan) + sweepEvery(plan))
    reasons.push(`polling degraded: no successful sweep since ${lastSweepAt}`);
  if (overdue.length > 0) {
    const ids = overdue.map((o) => o.id);
    const shown = ids.length > 5 ? `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more` : ids.join(", ");
    reasons.push(`polling degraded: ${overdue.length} issuers overdue (${shown})`);
  }
  return reasons;
}
async function stalledChannels(app) {
  const { config } = app.settings;
  const now = app.ctx.now().getTime();
  const reasons = [];
  for (const channel of config.channels) {
    const oldest = await app.ctx.outbox.oldestUndelivered(channel.name, now);
    const stall = channelStall(oldest, now, config.delivery.stalledAfter);
    if (stall.stalled && stall.ageMs !== null)
      reasons.push(describeStall(channel.name, stall.ageMs, config.delivery.stalledAfter));
  }
  return reasons;
}
async function readiness(app) {
  const reasons = [];
  if (!await redisAnswers(app.redis, READINESS_PING_MS)) {
    return { ready: false, reasons: ["redis does not answer"], notices: [] };
  }
  const { config } = app.settings;
  if (config.upstream !== void 0) reasons.push(...await pollingReasons(app));
  reasons.push(...await stalledChannels(app));
  const schedulers = await schedulerHealth(app.queues, app.settings.config, app.ctx.now().getTime());
  for (const s of schedulers)
    if (s.late || !s.registered) reasons.push(`scheduler ${s.id} is missing or late`);
  const sources = await collectSources(app.redis, app.ctx.prefix, config.sources, app.ctx.now().getTime());
  for (const s of sources)
    if (s.state === "stale")
      reasons.push(
        `register ${s.name} stale: no good read since ${s.lastGoodAt ?? "start"}${s.reason ? ` (${s.reason})` : ""}`
      );
  const notices = (await app.ctx.notices.list()).map((n) => `${n.severity}: ${n.title}`);
  return { ready: reasons.length === 0, reasons, notices };
}
export {
  collectStatus,
  readiness
};
