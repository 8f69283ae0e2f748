import { planFor } from "../../app.js";
import { displayText, formatDelta, formatPercent, KIND_VERB } from "../../channels/format.js";
import { formatDuration } from "../../config/duration.js";
import { describeWatchlist } from "../../jobs/plan-for.js";
import { isWholeDirectory } from "../../jobs/watchlist.js";
import { issuerSources, lookupIssuer } from "../../lookup/issuer-lookup.js";
import {
  collectStatus
} from "../../ops/status.js";
import { seenBy } from "../../positions/as-of.js";
import { GLOBAL_EVENTS_FACTOR } from "../../state/retention.js";
import { isSnapshotCorruptError } from "../../state/snapshot-corrupt-error.js";
import { asOfMs } from "../as-of.js";
import { withBudgetWait } from "../budget-wait.js";
import { withApp } from "../context.js";
import { describeFailure, EXIT } from "../exit.js";
import { parseCount } from "../number-options.js";
import { renderTable } from "../table.js";
import { resolveIssuerArgument } from "./upstream.js";
async function planCommand(ctx) {
  if (ctx.config.upstream === void 0) {
    ctx.out("No upstream API configured (registers only): no polling plan, no budget spent.");
    return EXIT.ok;
  }
  if (!isWholeDirectory(ctx.config.watchlist)) {
    printPlan(ctx, describeWatchlist(ctx.config, null), planFor(ctx.config));
    return EXIT.ok;
  }
  const directory = await withApp(ctx, (app) => directoryToPlanFor(ctx, app));
  const watchlist = describeWatchlist(ctx.config, directory);
  if (directory === null) {
    ctx.out(`Watchlist: ${watchlist}.`);
    return EXIT.failure;
  }
  printPlan(ctx, watchlist, planFor(ctx.config, directory.issuers));
  return EXIT.ok;
}
function printPlan(ctx, watchlist, plan) {
  const { budget } = ctx.config;
  ctx.out(
    `Watchlist: ${watchlist}; budget ${budget.perMinute}/minute, ${budget.perDay}/day, reserve ${budget.reserve}.`
  );
  for (const line of plan.summary) ctx.out(line);
  for (const line of plan.adjusted) ctx.out(`Adjusted: ${line}`);
}
async function directoryToPlanFor(ctx, app) {
  try {
    const list = await withBudgetWait(
      Boolean(ctx.options.wait),
      () => app.client("interactive").listIssuers(),
      ctx.out
    );
    return { issuers: list.data, source: "GET /issuers" };
  } catch (error) {
    const saved = await app.ctx.directory.load();
    ctx.out(
      `GET /issuers failed (${describeFailure(error).message}): ${saved ? "planning for the issuer list the sweeps saved" : "no sweep has saved an issuer list either"}.`
    );
    return saved && { issuers: saved.issuers, source: `the issuer list saved at ${saved.fetchedAt}` };
  }
}
async function statusCommand(ctx, options) {
  await withApp(ctx, async (app) => {
    const report = await collectStatus(app);
    ctx.out(options.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  });
}
function sharedBudget(deployments) {
  if (deployments.length === 0) return "";
  return `; SHARED with deployment ${deployments.join(", ")} (same API key): polls come later than planned`;
}
const NO_UPSTREAM = "Upstream: no upstream API configured (registers only: the sources below); no budget spent";
function formatStatus(r) {
  const daemon = r.processes.length > 0;
  const lines = [
    ...alarms(r),
    ...r.upstream === null || r.budget === null ? [NO_UPSTREAM] : apiLines(r, r.upstream, r.budget),
    "",
    renderTable(
      // The words of the console's Queues and of `deliveries`: ready, held, sending, parked, staged.
      ["CHANNEL", "KIND", "MODE", "READY", "HELD", "SENDING", "PARKED", "STAGED", "OLDEST UNSENT"],
      r.channels.map((c) => [
        c.name,
        c.kind,
        c.mode,
        c.waiting,
        c.delayed,
        c.active,
        c.failed,
        c.staged,
        describeOldest(c)
      ])
    ),
    ...r.sources.length > 0 ? [
      "",
      renderTable(
        ["REGISTER", "KIND", "STATE", "LAST GOOD READ"],
        r.sources.map((s) => [
          s.name,
          s.kind,
          [s.reason ? `${s.state}: ${s.reason}` : s.state, s.held ? `held back: ${s.held}` : ""].filter(Boolean).join("; "),
          s.lastGoodAt ?? "never"
        ])
      )
    ] : [],
    ...r.subscribers ? ["", ...subscriberLines(r.subscribers)] : [],
    "",
    `Schedulers: ${r.schedulers.map(describeScheduler).join("; ") || "none"}${daemon ? "" : " (no daemon running to run them)"}`,
    `Processes alive: ${r.processes.map((p) => `${p.id} (${p.role})`).join(", ") || "none"}`,
    `Notices: ${r.notices.map((n) => `[${n.severity}] ${n.title}`).join("; ") || "none"}`
  ];
  return lines.join("\n");
}
function subscriberLines(s) {
  const oldest = s.oldestUndeliveredMs === null ? "" : `; oldest unsent ${formatDuration(s.oldestUndeliveredMs)}`;
  return [
    `Subscribers: ${s.total} (${s.active} active, ${s.paused} paused, ${s.unsubscribed} unsubscribed; ${s.digest} on a digest)`,
    `Subscriber outboxes: ${s.outboxesWithWork} with work; ${s.ready} ready, ${s.held} held, ${s.sending} sending, ${s.parked} parked, ${s.staged} staged${oldest}`
  ];
}
function apiLines(r, upstream, budget) {
  const { minute, day } = budget;
  return [
    `Upstream access: ${describeAccess(upstream, budget)}`,
    `Budget: minute ${minute.used}/${minute.cap} used (${minute.left} left), day ${day.used}/${day.cap} used (${day.left} left, reserve ${budget.reserve})${sharedBudget(budget.sharedWith)}`,
    watchlistLine(r),
    `Plan: sweep every ${r.plan.sweepEvery}, gate ${r.plan.gate ? "on" : "off"}, ${r.plan.refreshesPerDay} refreshes/day followable, ~${r.plan.requestsPerDay} requests/day planned`,
    describeBound(r, upstream),
    `Last sweep: ${r.sweep.lastSweepAt ?? "never"}; dataset last_updated ${r.sweep.datasetLastUpdated ?? "unknown"}`,
    "",
    renderTable(
      ["ISSUER", "NAME", "LAST POLL", "HOLDERS", "TOTAL SHORT", "POLLING"],
      r.issuers.map((i) => [
        i.id,
        i.name,
        // Before its first poll an issuer has no holders to count: "0 holders, 0%" would be a claim.
        ...i.lastPoll === null ? ["not polled yet", "-", "-"] : [i.lastPoll, i.holders, `${i.totalShort}%`],
        i.problem ? `${i.health}: ${i.problem}` : i.health
      ])
    ),
    ...r.overdue.length > 0 ? ["", "Overdue:", ...r.overdue.map((line) => `  ${line}`)] : []
  ];
}
function describeOldest(channel) {
  if (channel.oldestUndeliveredMs === null) return "-";
  const age = formatDuration(channel.oldestUndeliveredMs);
  return channel.stalled ? `${age} STALLED` : age;
}
function alarms(r) {
  return [
    ...r.upstream === null || r.budget === null || r.upstream.access === "ok" ? [] : [`POLLING STOPPED: ${describeAccess(r.upstream, r.budget)}`],
    ...r.processes.length > 0 ? [] : [
      "NO DAEMON RUNNING: no shortwatch process has reported in the last 30s; nothing is polled or delivered until `shortwatch start` runs"
    ]
  ];
}
function describeAccess(upstream, budget) {
  if (upstream.access !== "ok") {
    const what = upstream.access === "unauthorized" ? "UNAUTHORIZED (401)" : "NO API ACCESS (403)";
    return `${what} since ${upstream.since}; polling stopped`;
  }
  if (budget.probing) {
    return `rate-limited, one probe request every ${budget.probing.every} (next ${upstream.blockedUntil ?? "now"}): ${budget.blockedReason}`;
  }
  return upstream.blockedUntil ? `blocked by a 429 until ${upstream.blockedUntil}` : "ok";
}
function watchlistLine(r) {
  const { watchlist: w } = r;
  if (w.all) return `Watchlist: whole directory, ${w.issuers} issuers`;
  if (w.unresolved.length === 0) return `Watchlist: ${w.issuers} issuers`;
  const names = w.unresolved.map((name) => `"${displayText(name)}"`).join(", ");
  return `Watchlist: ${w.issuers} issuers of ${w.entries} entries; ${w.unresolved.length} NOT RESOLVED (not watched): ${names}`;
}
function describeBound(r, upstream) {
  const stopped = upstream.access !== "ok" ? "polling is stopped (upstream access revoked)" : r.processes.length === 0 ? "no daemon is running" : void 0;
  const longest = r.bound.longest ? `; longest now ${formatDuration(r.bound.longest.ageMs)} (${r.bound.longest.id}, polled ${r.bound.longest.since})` : "";
  if (stopped) return `Hard bound: NOT KEPT: ${stopped}${longest}`;
  return `Hard bound: no watched issuer unpolled longer than ${r.bound.every ?? "forever (poll.maxStaleness off)"}${longest}`;
}
function describeScheduler(s) {
  if (!s.registered) return `${s.id} not registered yet (\`shortwatch start\` registers it)`;
  return `${s.id} next ${s.next ?? "none"}${s.late ? " (LATE)" : ""}`;
}
async function resumeCommand(ctx, issuer) {
  await withApp(ctx, async (app) => {
    if (issuer !== void 0) {
      ctx.out(await resumeIssuer(app, issuer));
      return;
    }
    const restored = await app.ctx.access.restore();
    if (restored) await app.ctx.notices.clear("access-revoked", "Resumed by an operator.");
    ctx.out(
      restored ? "Upstream access marked ok; polling resumes at the next sweep." : "Upstream access was not stopped."
    );
  });
}
async function resumeIssuer(app, argument) {
  const directory = (await app.ctx.directory.load())?.issuers ?? [];
  const id = resolveIssuerArgument(argument, directory);
  const said = [];
  if (await app.ctx.pollHealth.clearNotFound(id)) {
    await app.ctx.notices.clear(`issuer-missing-${id}`, `Resumed by an operator: ${id} is asked again.`);
    said.push(`${id}: 404 backoff cleared; asked again at the next sweep.`);
  }
  try {
    await app.ctx.snapshots.get(id);
  } catch (error) {
    if (!isSnapshotCorruptError(error)) throw error;
    await app.ctx.snapshots.delete(id);
    said.push(`${id}: the unreadable snapshot was dropped; the next poll re-baselines it silently.`);
  }
  return said.join("\n") || `${id}: nothing to resume (no 404 backoff, snapshot readable).`;
}
async function eventsIssuerId(app, argument) {
  try {
    return lookupIssuer(argument, await issuerSources(app.ctx.directory, app.settings.config.watchlist), {
      partial: true
    }).id;
  } catch (error) {
    const logged = await app.ctx.eventLog.recent({ issuerId: argument.trim(), limit: 1 });
    if (logged.length > 0) return argument.trim();
    throw error;
  }
}
async function eventsSeen(app, issuerId, limit, asOf) {
  if (asOf === void 0) return app.ctx.eventLog.recent({ issuerId, limit });
  const atMs = asOfMs(asOf, app.ctx.now().getTime());
  const kept = app.settings.config.poll.eventsKept * (issuerId === void 0 ? GLOBAL_EVENTS_FACTOR : 1);
  const events = await app.ctx.eventLog.recent({ issuerId, limit: kept });
  return events.filter((event) => seenBy(event, atMs)).slice(0, limit);
}
async function eventsCommand(ctx, issuer, options) {
  const limit = parseCount(options.limit, "--limit");
  await withApp(ctx, async (app) => {
    const issuerId = issuer ? await eventsIssuerId(app, issuer) : void 0;
    const events = await eventsSeen(app, issuerId, limit, options.asOf);
    if (options.json) {
      ctx.out(JSON.stringify(events, null, 2));
      return;
    }
    ctx.out(
      renderTable(
        ["DETECTED", "ISSUER", "HOLDER", "KIND", "FROM", "TO", "CHANGE"],
        events.map((e) => [
          e.detectedAt.slice(0, 19).replace("T", " "),
          e.issuer.name,
          e.holder,
          kindCell(e),
          e.previous ? formatPercent(e.previous.value) : "-",
          e.current ? formatPercent(e.current.value) : "<0.5%",
          e.kind === "closed" ? "-" : formatDelta(e.delta)
        ])
      )
    );
  });
}
function kindCell(event) {
  const parts = [KIND_VERB[event.kind]];
  if (event.story?.kind === "fell-below") parts.push("fell below 0.5%");
  if (event.story?.kind === "below-confirmed") parts.push("confirms the fall");
  if (event.story?.kind === "back-above") parts.push(`back after ${event.story.daysBelow}d`);
  if (event.hold) parts.push(`held until ${event.hold.until.slice(11, 16)}Z`);
  return parts.join(", ");
}
export {
  eventsCommand,
  formatDuration,
  formatStatus,
  planCommand,
  resumeCommand,
  statusCommand
};
