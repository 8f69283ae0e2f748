import { displayText } from "../../channels/format.js";
import { formatDuration } from "../../config/duration.js";
import { diffAggregates } from "../../sources/aggregate-diff.js";
import { readSource } from "../../sources/read-source.js";
import { Lease } from "../../state/lease.js";
import { commitObserved } from "../observe/commit-observed.js";
import { regimeEvent, withoutBoundaryArtefacts } from "../observe/regime-event.js";
import { aggregateAlerts } from "./aggregate-alerts.js";
import { tellDecision } from "./read-decision.js";
import { holdRead, holdVerdict } from "./read-hold.js";
import {
  diffRegister,
  isWatched
} from "./register-diff.js";
import { sourceNotReadKey } from "./source-notices.js";
async function runRegisterPoll(ctx, deps, sourceName) {
  const source = ctx.settings().config.sources.find((s) => s.name === sourceName);
  if (source === void 0) return { outcome: "gone" };
  const lease = new Lease(
    ctx.redis,
    deps.store.keys(source.name).readLease,
    `${ctx.processId}|${ctx.now().toISOString()}`,
    Math.max(1e4, source.fetch.timeout)
  );
  if (!await lease.take()) return { outcome: "busy" };
  lease.keepAlive();
  try {
    return await readLeased(ctx, deps, source);
  } finally {
    await lease.release();
  }
}
async function readLeased(ctx, deps, source) {
  const last = await keptUnlessReshaped(ctx, deps.store, source);
  const lastRead = last === null ? void 0 : await deps.store.lastRead(source.name);
  const read = await readSource(source, lastRead, { previous: last?.snapshot, now: ctx.now() });
  if (read.status === "not-read") {
    await notRead(ctx, deps.store, source, read.reason, read.detail);
    return { outcome: "not-read", reason: read.reason };
  }
  if (read.status === "not-modified") {
    if (await deps.store.release(source.name))
      ctx.logger.info({ source: source.name }, "held-back read replaced by the file kept: nothing told");
    await readWell(ctx, deps.store, source);
    return { outcome: "not-modified" };
  }
  const done = await commitRead(ctx, deps.store, source, { snapshot: read.snapshot, last });
  if ("held" in done) {
    await readWell(ctx, deps.store, source);
    const againMs = Date.parse(done.held.readAgainAt ?? "") - ctx.now().getTime();
    if (source.confirm.after !== void 0 && deps.readAgain) await deps.readAgain(source.name, againMs);
    return { outcome: "held", text: done.held.text };
  }
  await deps.store.saveKept(source.name, { snapshot: read.snapshot, read: read.last }, ctx.now());
  await readWell(ctx, deps.store, source);
  return { outcome: "read", ...done };
}
async function keptUnlessReshaped(ctx, store, source) {
  const last = await store.lastSnapshot(source.name);
  if (last === null || last.snapshot.kind === source.kind) return last;
  const forgotten = await store.forgetIssuers(source.name);
  ctx.logger.warn(
    { source: source.name, from: last.snapshot.kind, to: source.kind, forgotten },
    "register source reads another register now: its issuers are baselined again, nothing told"
  );
  return null;
}
async function commitRead(ctx, store, source, { snapshot, last }) {
  const verdict = await holdVerdict(ctx, store, source, { last: last?.snapshot, snapshot });
  if (!verdict.commit) return { held: await holdRead(ctx, store, source, verdict, "") };
  const alerts = aggregateAlertsOf(ctx, source, snapshot, last);
  const diff = await diffRead(ctx, store, source, { snapshot, last, alerts, confirmed: verdict.confirmed });
  if (diff.unconfirmed !== void 0) {
    const { emptied, named } = diff.unconfirmed;
    const why = `; ${emptied} of ${named} issuers that named holders name none`;
    return { held: await holdRead(ctx, store, source, verdict, why) };
  }
  const mutes = diff.drops.length + diff.issuers.length > 0 ? await ctx.mutes.list() : [];
  let events = 0;
  const changes = [
    ...diff.drops.map((drop) => ({ issuer: drop.silent, drop })),
    ...diff.issuers.map((issuer) => ({ issuer }))
  ];
  for (const change of changes) {
    const aggregates = alerts.get(change.issuer.key) ?? [];
    events += await commitIssuer(ctx, store, source, {
      ...change,
      aggregates: change.drop ? withoutBoundaryArtefacts(aggregates) : aggregates,
      mutes,
      publishedOn: snapshot.publishedOn
    });
  }
  await tellDecision(ctx, source, { verdict, regime: diff.regime });
  if (events > 0) ctx.logger.info({ source: source.name, events }, "register read found changes");
  return { events, issuers: diff.issuers.length, drops: diff.drops.length };
}
async function diffRead(ctx, store, source, input) {
  const { config } = ctx.settings();
  const { snapshot, last } = input;
  const keys = [
    .../* @__PURE__ */ new Set([...await store.issuerKeys(source.name), ...snapshot.issuers.map((i) => i.key)])
  ];
  return diffRegister({
    source,
    snapshot,
    previous: await store.snapshots(source.name, keys),
    now: ctx.now(),
    thresholds: config.poll.thresholds,
    onFirstSeen: config.poll.onFirstSeen,
    ...last === null ? {} : { listedBefore: new Set(last.snapshot.issuers.map((issuer) => issuer.key)) },
    alsoCommit: new Set(input.alerts.keys()),
    kept: last?.snapshot,
    confirmed: input.confirmed
  });
}
function aggregateAlertsOf(ctx, source, snapshot, last) {
  const byIssuer = /* @__PURE__ */ new Map();
  if (last === null || last.snapshot.aggregateThreshold !== snapshot.aggregateThreshold) return byIssuer;
  const watched = diffAggregates(last.snapshot, snapshot, source.aggregates).filter(
    (event) => isWatched(source.watchlist, event.issuer)
  );
  const now = ctx.now();
  const alerts = aggregateAlerts(watched, {
    source: source.name,
    from: last.at,
    detectedAt: now.toISOString(),
    listedOn: snapshot.publishedOn ?? now.toISOString().slice(0, 10)
  });
  for (const alert of alerts)
    byIssuer.set(alert.issuer.id, [...byIssuer.get(alert.issuer.id) ?? [], alert]);
  return byIssuer;
}
async function commitIssuer(ctx, store, source, change) {
  const { previous, diff, key } = change.issuer;
  const regime = regimeOf(ctx, source, change);
  const keys = store.keys(source.name);
  const outcome = await commitObserved(
    ctx,
    ctx.settings(),
    {
      previous,
      diff,
      aggregates: change.aggregates,
      ...regime === void 0 ? {} : { regime },
      store: { snapshot: keys.snapshot(key), written: keys.issuers, member: key }
    },
    change.mutes
  );
  if (change.drop !== void 0) logRegimeDrop(ctx, source, change.drop);
  return outcome.logged;
}
function regimeOf(ctx, source, change) {
  if (change.drop === void 0) return void 0;
  const now = ctx.now().toISOString();
  const date = change.publishedOn ?? now.slice(0, 10);
  return {
    drop: change.drop,
    event: regimeEvent(change.drop, { source: source.name, detectedAt: now, date })
  };
}
function logRegimeDrop(ctx, source, drop) {
  ctx.logger.warn(
    { source: source.name, issuer: drop.key },
    `${displayText(drop.name)}: named holders no longer published (${source.name}), told once instead of ${drop.closes.length} closes`
  );
}
async function notRead(ctx, store, source, reason, detail) {
  await store.recordHealth(source.name, { status: "not-read", reason, detail }, ctx.now());
  ctx.logger.warn({ source: source.name, reason, detail }, "register not read; nothing changed");
  await ctx.notices.raise(
    sourceNotReadKey(source.name),
    "warning",
    `Register ${source.name} not read`,
    `The ${source.name} register (${source.kind}) was not read: ${reason} (${displayText(detail)}). Nothing it lists changed in shortwatch; it is asked again every ${formatDuration(source.interval)}.`
  );
}
async function readWell(ctx, store, source) {
  const { before } = await store.recordHealth(source.name, { status: "read" }, ctx.now());
  if (before?.status === "not-read")
    await ctx.notices.clear(sourceNotReadKey(source.name), `The ${source.name} register is read again.`);
}
export {
  runRegisterPoll
};
