import { isAccessRevokedError, isBudgetExhaustedError } from "../budget/index.js";
import { nextWindowStart } from "../budget/windows.js";
import {
  blindListDue,
  blindListIntervalMs,
  selectBlindPolls
} from "../schedule/blind-polls.js";
import {
  freeTokens,
  gateDecision,
  learnProfile,
  queuePriority,
  refreshesLater,
  refreshTimesKnown,
  seenToday,
  selectPolls,
  snapshotRate,
  uniformProfile,
  untilRefreshMs
} from "../schedule/index.js";
import { RefreshHistory } from "../schedule/refresh-history.js";
import { stateKeys } from "../state/keys.js";
import { mayPoll, pollingState } from "../state/polling-state.js";
import {
  isNoApiAccessError,
  isRateLimitedError,
  isUnauthorizedError
} from "../upstream/index.js";
import { logDirectoryMoves } from "./directory-moves.js";
import { acceptIssuerList } from "./directory-shrink.js";
import { envelopeNoticeKey } from "./poll-answer.js";
import { CAUSE_TEXT, failureCause } from "./poll-failure.js";
import { overdueAfterMs, overdueIssuers, syncOverdueNotices } from "./poll-health-report.js";
import { pollJobId } from "./queues.js";
import { sweepEvery } from "./schedulers.js";
import { checkStateKept } from "./state-kept.js";
import { resolveWatchlist, watchlistProblems } from "./watchlist.js";
const POLL_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: "exponential", delay: 5e3, jitter: 0.5 },
  removeOnComplete: { age: 24 * 3600, count: 1e4 },
  removeOnFail: { age: 7 * 24 * 3600, count: 1e4 }
};
async function runSweep(ctx) {
  try {
    const result = await sweepOnce(ctx);
    ctx.metrics.sweeps.inc({ outcome: result.outcome });
    if (result.outcome === "polled" || result.outcome === "unchanged")
      await ctx.notices.clear("sweep-failing", "The issuer list answers again; polling goes on.");
    return result;
  } catch (error) {
    ctx.metrics.sweeps.inc({ outcome: "failed" });
    await reportSweepFailure(ctx, error).catch(() => void 0);
    throw error;
  }
}
async function reportSweepFailure(ctx, error) {
  const { config, plan } = ctx.settings();
  const lastSweepAt = await ctx.redis.hget(stateKeys(ctx.prefix).sweep, "lastSweepAt");
  const since = lastSweepAt ? Date.parse(lastSweepAt) : Number.NaN;
  const nowMs = ctx.now().getTime();
  if (!(nowMs - since > overdueAfterMs(config, plan))) return;
  const cause = failureCause(error);
  await ctx.notices.raise(
    "sweep-failing",
    "critical",
    "The issuer list cannot be read: nothing is polled",
    `Every sweep since ${lastSweepAt} failed: ${CAUSE_TEXT[cause]} (GET /issuers). No issuer is polled until it answers again.`
  );
}
async function sweepOnce(ctx) {
  const now = ctx.now();
  const gate = await gateThisTick(ctx, new RefreshHistory(ctx.redis, ctx.prefix), now);
  const list = await readList(ctx, gate, now);
  if ("outcome" in list) return list;
  const { config } = ctx.settings();
  const resolved = resolveWatchlist(config.watchlist, list.data);
  const { watched } = resolved;
  await reportWatchlistProblems(ctx, watchlistProblems(config.watchlist, list.data, resolved));
  const read = await readIssuers(ctx, watched);
  const due = await decidePolls(ctx, read, list.last_updated, gate);
  await writeSweep(ctx, read, due, list.last_updated, now);
  const lastUpdated = list.last_updated;
  if (!gate.check)
    return { outcome: "between-checks", due: due.length, watched: watched.length, lastUpdated };
  if (due.length === 0) {
    ctx.metrics.sweepsSkippedByGate.inc();
    return { outcome: "unchanged", watched: watched.length, lastUpdated };
  }
  ctx.logger.info({ due: due.length, watched: watched.length, lastUpdated }, "sweep enqueued polls");
  return { outcome: "polled", due: due.length, watched: watched.length, lastUpdated };
}
async function readList(ctx, gate, now) {
  const fetched = gate.check ? await fetchDirectory(ctx) : await savedDirectory(ctx);
  if ("outcome" in fetched || !gate.check) return fetched;
  const sweepKey = stateKeys(ctx.prefix).sweep;
  if (!await acceptIssuerList(ctx, fetched, await ctx.directory.count(), sweepKey))
    return savedDirectory(ctx);
  logDirectoryMoves(ctx, await ctx.directory.save(fetched.data, fetched.last_updated, now), fetched.data);
  const previousCheck = Date.parse(await ctx.redis.hget(sweepKey, "lastCheckAt") ?? "");
  await ctx.redis.hset(sweepKey, "lastCheckAt", now.toISOString());
  if (fetched.last_updated !== null) {
    await new RefreshHistory(ctx.redis, ctx.prefix).record(
      fetched.last_updated,
      now.getTime(),
      Number.isNaN(previousCheck) ? null : previousCheck
    );
  }
  return fetched;
}
async function readIssuers(ctx, watched) {
  const { snapshots, corrupt } = await ctx.snapshots.readMany(watched.map((w) => w.id));
  const unreadable = new Set(corrupt.map((c) => c.issuerId));
  await checkStateKept(
    ctx,
    watched.filter((w) => !unreadable.has(w.id)),
    snapshots
  );
  return { watched, snapshots, unreadable, health: await ctx.pollHealth.read() };
}
async function decidePolls(ctx, read, lastUpdated, gate) {
  const { plan } = ctx.settings();
  const nowMs = ctx.now().getTime();
  const eligible = read.watched.filter(
    (issuer) => mayPoll(
      pollingState({
        health: read.health.issuers.get(issuer.id),
        hasSnapshot: read.snapshots.has(issuer.id) || read.unreadable.has(issuer.id),
        listVersion: lastUpdated,
        nowMs,
        intervalMs: sweepEvery(plan)
      })
    )
  );
  const blind = plan.gate && lastUpdated === null;
  await reportUnversioned(ctx, blind, read.watched.length);
  if (blind) return blindPolls(ctx, eligible, read.snapshots, gate);
  if (plan.gate) return scheduledPolls(ctx, eligible, read.snapshots, lastUpdated, gate);
  return eligible.flatMap((issuer) => {
    const reason = pollReason(read.snapshots.get(issuer.id), lastUpdated, nowMs, {
      gate: plan.gate,
      maxStalenessMs: plan.maxStalenessMs,
      intervalMs: plan.sweepIntervalMs
    });
    return reason ? [{ issuer, reason, priority: void 0 }] : [];
  });
}
async function writeSweep(ctx, read, due, lastUpdated, now) {
  await ctx.redis.hset(stateKeys(ctx.prefix).sweep, {
    lastSweepAt: now.toISOString(),
    lastUpdated: lastUpdated ?? "",
    lastDue: String(due.length),
    watched: String(read.watched.length),
    // What `poll.confirmClosedShare` is a share of: written before the polls exist, which read it.
    positions: String([...read.snapshots.values()].reduce((n, s) => n + Object.keys(s.positions).length, 0))
  });
  await ctx.queues.poll.addBulk(due.map((poll) => pollJob(ctx, poll, lastUpdated, now)));
  const dueIds = due.map((d) => d.issuer.id);
  await ctx.pollHealth.markDue(dueIds, now);
  await reportPollHealth(ctx, read.watched, withDue(read.health, dueIds, now));
  ctx.metrics.lastSweepAt.set(now.getTime() / 1e3);
}
function pollJob(ctx, poll, lastUpdated, now) {
  const { plan } = ctx.settings();
  const { issuer, reason, priority, delayMs } = poll;
  const version = datasetVersion(lastUpdated, now.getTime(), plan);
  return {
    name: "poll",
    data: {
      issuerId: issuer.id,
      issuerName: issuer.name,
      ...issuer.label ? { label: issuer.label } : {},
      reason,
      datasetVersion: lastUpdated
    },
    opts: {
      ...delayMs === void 0 ? {} : { delay: delayMs },
      // Deduplicated for half a sweep interval only: a poll left active by a dead process must not keep
      // the issuer from being planned again at the next sweep (a duplicate that finds the snapshot
      // current spends no token), and a fixed job id would block every later sweep after a failure.
      deduplication: {
        id: pollJobId(issuer.id, dedupeVersion(reason, version, now.getTime() + (delayMs ?? 0))),
        ttl: Math.max(1, Math.floor(sweepEvery(plan) / 2))
      },
      // The most likely changes first, across sweeps too (BullMQ: 1 is the highest priority).
      ...priority === void 0 ? {} : { priority },
      ...POLL_JOB_OPTIONS
    }
  };
}
async function gateThisTick(ctx, history, now) {
  const { plan, config } = ctx.settings();
  const dayMs = config.budget.dayWindow;
  const nowMs = now.getTime();
  if (plan.gate) {
    const saved = await ctx.directory.load();
    if (saved !== null && saved.lastUpdated === null) return blindGateTick(ctx, saved.issuers, nowMs);
  }
  const slots = Math.ceil(dayMs / sweepEvery(plan));
  if (!plan.gate || plan.gateChecksPerDay >= slots) {
    const left = Math.floor((dayMs - nowMs % dayMs) / sweepEvery(plan));
    return { check: true, checksLeft: plan.gate ? left : 0, profile: uniformProfile(), seenToday: 0 };
  }
  const refreshes = await history.list();
  const profile = learnProfile(
    refreshes.map((r) => r.at),
    nowMs,
    dayMs
  );
  const lastCheckAt = await ctx.redis.hget(stateKeys(ctx.prefix).sweep, "lastCheckAt");
  const lastCheckMs = lastCheckAt ? Date.parse(lastCheckAt) : Number.NaN;
  const decision = gateDecision({
    nowMs,
    dayMs,
    tickMs: sweepEvery(plan),
    profile,
    checksPerDay: plan.gateChecksPerDay,
    lastCheckMs: Number.isNaN(lastCheckMs) ? null : lastCheckMs
  });
  return {
    ...decision,
    profile,
    seenToday: seenToday(
      refreshes.map((r) => r.seenAt),
      nowMs,
      dayMs
    )
  };
}
async function savedDirectory(ctx) {
  const saved = await ctx.directory.load();
  if (saved === null) return fetchDirectory(ctx);
  return { data: saved.issuers, last_updated: saved.lastUpdated };
}
function dedupeVersion(reason, version, atMs) {
  if (reason === "changed" || reason === "new") return version;
  return reason === "blind" ? `blind-${atMs}` : `${reason}-${version}`;
}
async function blindPolls(ctx, eligible, snapshots, gate) {
  const { plan } = ctx.settings();
  const nowMs = ctx.now().getTime();
  const queue = await queuedPolls(ctx);
  if (queue.ready >= eligible.length) return [];
  const byId = new Map(eligible.map((issuer) => [issuer.id, issuer]));
  const polls = selectBlindPolls({
    issuers: eligible.map((issuer) => {
      const snapshot = snapshots.get(issuer.id);
      return { id: issuer.id, polledAtMs: snapshot ? Date.parse(snapshot.polledAt) : null };
    }),
    nowMs,
    ...await blindPace(ctx, nowMs, gate.checksLeft, queue.ready + queue.delayed),
    tickMs: sweepEvery(plan),
    listInRotation: true
  });
  return polls.flatMap((poll) => {
    const issuer = byId.get(poll.id);
    return issuer ? [{ issuer, reason: "blind", priority: void 0, delayMs: poll.atMs - nowMs }] : [];
  });
}
async function queuedPolls(ctx) {
  const counts = await ctx.queues.poll.getJobCounts("wait", "prioritized", "delayed");
  const ready = (counts.wait ?? 0) + (counts.prioritized ?? 0);
  const delayed = counts.delayed ?? 0;
  return { ready, delayed, total: ready + delayed };
}
async function blindPace(ctx, nowMs, checksLeft, queued) {
  const { plan, config } = ctx.settings();
  const usage = await ctx.budget.usage();
  return {
    spendable: freeTokens({
      tokensLeft: usage.day.left - usage.reserve,
      checksLeft,
      queued,
      refreshesLater: 0
    }),
    untilDayEndMs: nextWindowStart(nowMs, config.budget.dayWindow) - nowMs,
    perMinute: Math.max(1, config.budget.perMinute - plan.gateChecksPerMinute),
    minuteMs: config.budget.minuteWindow
  };
}
async function blindGateTick(ctx, issuers, nowMs) {
  const { plan, config } = ctx.settings();
  const sweepKey = stateKeys(ctx.prefix).sweep;
  const [lastCheckAt, versionSeen, versionListed] = await ctx.redis.hmget(
    sweepKey,
    "lastCheckAt",
    "blindVersionSeen",
    "blindVersionListed"
  );
  if (newerVersion(versionSeen, versionListed)) {
    await ctx.redis.hset(sweepKey, "blindVersionListed", versionSeen);
    return { check: true, checksLeft: 0, profile: uniformProfile(), seenToday: 0 };
  }
  const watched = resolveWatchlist(config.watchlist, issuers).watched.length;
  const check = blindListDue({
    nowMs,
    lastCheckMs: lastCheckAt ? Date.parse(lastCheckAt) : null,
    tickMs: sweepEvery(plan),
    intervalMs: blindListIntervalMs(await blindPace(ctx, nowMs, 0, (await queuedPolls(ctx)).total), watched)
  });
  return { check, checksLeft: 0, profile: uniformProfile(), seenToday: 0 };
}
function newerVersion(seen, listed) {
  if (!seen) return false;
  return !listed || Date.parse(seen) > Date.parse(listed);
}
async function reportUnversioned(ctx, blind, watched) {
  if (!blind) {
    await ctx.notices.clear(
      "dataset-unversioned",
      "The issuer list carries its version again: the gate decides polls."
    );
    return;
  }
  await ctx.notices.raise(
    "dataset-unversioned",
    "warning",
    "The issuer list carries no version: detection now costs polls",
    `GET /issuers answers \`last_updated: null\`, so shortwatch cannot tell when the dataset moves. It polls the ${watched} watched issuer${watched === 1 ? "" : "s"} in turn, as often as the day's budget allows, until the version returns; changes are found later than with the gate.`
  );
}
async function scheduledPolls(ctx, watched, snapshots, lastUpdated, gate) {
  const { plan, config } = ctx.settings();
  const nowMs = ctx.now().getTime();
  const versionMs = lastUpdated === null ? Number.NaN : Date.parse(lastUpdated);
  const usage = await ctx.budget.usage();
  const queue = await queuedPolls(ctx);
  const later = refreshesLater(gate.profile, nowMs, config.budget.dayWindow, gate.seenToday);
  const chosen = selectPolls({
    issuers: watched.map((issuer) => scheduleState(issuer.id, snapshots.get(issuer.id), nowMs)),
    versionMs: Number.isNaN(versionMs) ? null : versionMs,
    nowMs,
    boundMs: plan.maxStalenessMs,
    budget: {
      tokensLeft: usage.day.left - usage.reserve,
      checksLeft: gate.checksLeft,
      queued: queue.total,
      refreshesLater: later
    },
    untilRefreshMs: untilRefreshMs(gate.profile, nowMs, config.budget.dayWindow, later),
    dayMs: config.budget.dayWindow,
    minuteMs: config.budget.minuteWindow,
    seenToday: gate.seenToday,
    refreshTimesKnown: refreshTimesKnown(gate.profile),
    untilDayEndMs: nextWindowStart(nowMs, config.budget.dayWindow) - nowMs,
    fullSweepMs: plan.minSweepMs,
    tickMs: sweepEvery(plan),
    fullSweeps: plan.refreshesPerDay >= 1
  });
  const byId = new Map(watched.map((issuer) => [issuer.id, issuer]));
  return chosen.flatMap((candidate) => {
    const issuer = byId.get(candidate.id);
    return issuer ? [{ issuer, reason: candidate.reason, priority: queuePriority(candidate) }] : [];
  });
}
function scheduleState(id, snapshot, nowMs) {
  if (!snapshot) return { id, seenVersionMs: null, polledAtMs: null, rate: 0 };
  const seen = snapshot.lastUpdated === null ? Number.NaN : Date.parse(snapshot.lastUpdated);
  return {
    id,
    seenVersionMs: Number.isNaN(seen) ? null : seen,
    polledAtMs: Date.parse(snapshot.polledAt),
    rate: snapshotRate(snapshot, nowMs)
  };
}
function pollReason(snapshot, lastUpdated, nowMs, policy) {
  if (!snapshot) return "new";
  const age = nowMs - Date.parse(snapshot.polledAt);
  if (policy.gate && lastUpdated !== null) {
    const seen = snapshot.lastUpdated === null ? Number.NaN : Date.parse(snapshot.lastUpdated);
    if (!(seen >= Date.parse(lastUpdated))) return "changed";
    return age >= policy.maxStalenessMs ? "stale" : void 0;
  }
  return age >= policy.intervalMs * 0.95 ? "interval" : void 0;
}
function datasetVersion(lastUpdated, nowMs, plan) {
  if (lastUpdated !== null && !Number.isNaN(Date.parse(lastUpdated))) return `v${Date.parse(lastUpdated)}`;
  return `t${Math.floor(nowMs / plan.sweepIntervalMs)}`;
}
async function fetchDirectory(ctx) {
  let client = ctx.upstream;
  await ctx.access.reconcile(ctx.settings().fingerprint);
  const access = await ctx.access.get();
  if (access.state !== "ok") {
    if (!await ctx.access.claimProbe()) return { outcome: "revoked" };
    client = ctx.probe;
  }
  try {
    return await client.listIssuers();
  } catch (error) {
    if (isBudgetExhaustedError(error)) return { outcome: error.reason === "blocked" ? "blocked" : "budget" };
    if (isAccessRevokedError(error) || isUnauthorizedError(error) || isNoApiAccessError(error)) {
      return { outcome: "revoked" };
    }
    if (isRateLimitedError(error)) return { outcome: "blocked" };
    throw error;
  }
}
function withDue(health, dueIds, at) {
  const issuers = new Map(health.issuers);
  for (const id of dueIds) {
    const h = issuers.get(id) ?? {};
    issuers.set(id, { ...h, dueSince: h.dueSince ?? at.toISOString() });
  }
  return { ...health, issuers };
}
async function reportPollHealth(ctx, watched, health) {
  const { config, plan } = ctx.settings();
  const ids = new Set(watched.map((w) => w.id));
  await ctx.pollHealth.forget([...health.issuers.keys()].filter((id) => !ids.has(id)));
  const nowMs = ctx.now().getTime();
  const overdue = overdueIssuers(watched, health.issuers, nowMs, overdueAfterMs(config, plan));
  ctx.metrics.issuersOverdue.set(overdue.length);
  const active = await ctx.notices.list();
  await syncOverdueNotices(ctx, overdue, active);
  for (const seen of health.envelopes) {
    if (nowMs - Date.parse(seen.lastSeen) > config.poll.maxStaleness) {
      await ctx.notices.clear(
        envelopeNoticeKey(seen.keys),
        "Positions answers no longer carry unknown fields."
      );
      await ctx.pollHealth.forgetEnvelope(seen.field);
    }
  }
}
async function reportWatchlistProblems(ctx, problems) {
  if (problems.length > 0) {
    await ctx.notices.raise("watchlist", "warning", "Watchlist entries do not resolve", problems.join("\n"));
  } else {
    await ctx.notices.clear("watchlist", "Every watchlist entry resolves again.");
  }
}
export {
  pollReason,
  runSweep,
  scheduleState
};
