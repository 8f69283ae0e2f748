import { displayText } from '../../channels/format.js';
import { formatDuration } from '../../config/duration.js';
import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import { tellStories } from '../../positions/threshold-story.js';
import type { PositionEvent } from '../../positions/types.js';
import {
  type DeliveryPlan,
  type Mute,
  planDelivery,
  recordFallsTold,
  routeOptionsOf,
} from '../../routing/index.js';
import { diffAggregates } from '../../sources/aggregate-diff.js';
import { readSource } from '../../sources/read-source.js';
import type { RegisterSnapshot } from '../../sources/types.js';
import { commitPoll } from '../../state/poll-commit.js';
import type { RegisterStore, StoredRead } from '../../state/register-store.js';
import type { JobContext } from '../context.js';
import { aggregateAlerts } from './aggregate-alerts.js';
import { planRegimeEvent, regimeEvent, withoutBoundaryArtefacts } from './regime-event.js';
import { diffRegister, isWatched, type RegimeDrop, type RegisterIssuerDiff } from './register-diff.js';
import { sourceNotReadKey } from './source-notices.js';

/** What one register poll did. */
export type RegisterPollResult =
  | { outcome: 'not-modified' | 'gone' }
  | { outcome: 'not-read'; reason: string }
  | { outcome: 'read'; issuers: number; events: number; drops: number };

/** What a register poll needs beyond the job context. */
export interface RegisterPollDeps {
  store: RegisterStore;
}

/**
 * One poll of a whole-register source: conditional GET → decode → parse → health → per issuer the
 * API's diff, routing and atomic poll commit into the outbox. A file that fails health changes nothing
 * and raises the source's notice; a good read (or a 304) clears it. The validators are saved last, so a
 * crash before then reads the file again and the commits' dedupe drops what was already written.
 */
export async function runRegisterPoll(
  ctx: JobContext,
  deps: RegisterPollDeps,
  sourceName: string,
): Promise<RegisterPollResult> {
  const source = ctx.settings().config.sources.find((s) => s.name === sourceName);
  // A source removed by a reload while its job waited.
  if (source === undefined) return { outcome: 'gone' };
  const last = await keptUnlessReshaped(ctx, deps.store, source);
  // The validators and row count of another register's file say nothing of this one's.
  const lastRead = last === null ? undefined : await deps.store.lastRead(source.name);
  const read = await readSource(source, lastRead, { previous: last?.snapshot, now: ctx.now() });
  if (read.status === 'not-read') {
    await notRead(ctx, deps.store, source, read.reason, read.detail);
    return { outcome: 'not-read', reason: read.reason };
  }
  if (read.status === 'not-modified') {
    await readWell(ctx, deps.store, source);
    return { outcome: 'not-modified' };
  }
  const { events, issuers, drops } = await commitRead(ctx, deps.store, source, {
    snapshot: read.snapshot,
    last,
  });
  await deps.store.saveRead(source.name, read.last, ctx.now());
  await readWell(ctx, deps.store, source);
  return { outcome: 'read', issuers, events, drops };
}

/**
 * The last read kept, or null when the source now reads another register under its name (its `kind`
 * changed in the config): then every issuer it stored is forgotten and the next read is a silent
 * baseline, with no validators or row count of the old file.
 * Read against the old register's snapshots, it would tell every issuer of one as closed and every
 * issuer of the other as opened.
 */
async function keptUnlessReshaped(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
): Promise<StoredRead | null> {
  const last = await store.lastSnapshot(source.name);
  if (last === null || last.snapshot.kind === source.kind) return last;
  const forgotten = await store.forgetIssuers(source.name);
  ctx.logger.warn(
    { source: source.name, from: last.snapshot.kind, to: source.kind, forgotten },
    'register source reads another register now: its issuers are baselined again, nothing told',
  );
  return null;
}

async function commitRead(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  { snapshot, last }: { snapshot: RegisterSnapshot; last: StoredRead | null },
): Promise<{ events: number; issuers: number; drops: number }> {
  const { config } = ctx.settings();
  const alerts = aggregateAlertsOf(ctx, source, snapshot, last);
  const keys = [
    ...new Set([...(await store.issuerKeys(source.name)), ...snapshot.issuers.map((i) => i.key)]),
  ];
  const diff = diffRegister({
    source,
    snapshot,
    previous: await store.snapshots(source.name, keys),
    now: ctx.now(),
    thresholds: config.poll.thresholds,
    onFirstSeen: config.poll.onFirstSeen,
    ...(last === null ? {} : { listedBefore: new Set(last.snapshot.issuers.map((issuer) => issuer.key)) }),
    alsoCommit: new Set(alerts.keys()),
    kept: last?.snapshot,
  });
  // One read of the mutes for the whole file: a read can commit hundreds of issuers.
  const mutes = diff.drops.length + diff.issuers.length > 0 ? await ctx.mutes.list() : [];
  let events = 0;
  const changes: { issuer: RegisterIssuerDiff; drop?: RegimeDrop }[] = [
    ...diff.drops.map((drop) => ({ issuer: drop.silent, drop })),
    ...diff.issuers.map((issuer) => ({ issuer })),
  ];
  for (const change of changes) {
    const aggregates = alerts.get(change.issuer.key) ?? [];
    events += await commitIssuer(ctx, store, source, {
      ...change,
      aggregates: change.drop ? withoutBoundaryArtefacts(aggregates) : aggregates,
      mutes,
      publishedOn: snapshot.publishedOn,
    });
  }
  await store.saveSnapshot(source.name, snapshot, ctx.now());
  if (events > 0) ctx.logger.info({ source: source.name, events }, 'register read found changes');
  return { events, issuers: diff.issuers.length, drops: diff.drops.length };
}

/**
 * The aggregate and scope events of this read against the last one kept, by issuer key; none on the
 * first read (a silent baseline, as for named holders), nor on the first read with or without an
 * aggregate file (`aggregateUrl` added or removed): it differs from the kept read by every issuer's
 * aggregate, and none of that happened in the register. A kept read of another kind never gets here
 * (`keptUnlessReshaped` forgets it).
 */
function aggregateAlertsOf(
  ctx: JobContext,
  source: RegisterSourceConfig,
  snapshot: RegisterSnapshot,
  last: StoredRead | null,
): Map<string, PositionEvent[]> {
  const byIssuer = new Map<string, PositionEvent[]>();
  if (last === null || last.snapshot.aggregateThreshold !== snapshot.aggregateThreshold) return byIssuer;
  const watched = diffAggregates(last.snapshot, snapshot, source.aggregates).filter((event) =>
    isWatched(source.watchlist, event.issuer),
  );
  const now = ctx.now();
  const alerts = aggregateAlerts(watched, {
    source: source.name,
    from: last.at,
    detectedAt: now.toISOString(),
    listedOn: snapshot.publishedOn ?? now.toISOString().slice(0, 10),
  });
  for (const alert of alerts)
    byIssuer.set(alert.issuer.id, [...(byIssuer.get(alert.issuer.id) ?? []), alert]);
  return byIssuer;
}

/** One issuer's change within a read: its diff, its aggregate events, and a regime drop if it is one. */
interface IssuerChange {
  issuer: RegisterIssuerDiff;
  aggregates: readonly PositionEvent[];
  mutes: readonly Mute[];
  /** The issuer's named holders are no longer published: one event replaces its closes. */
  drop?: RegimeDrop;
  publishedOn: string | undefined;
}

/** Routes and commits one issuer's events with its snapshot, under the source's own keys. */
async function commitIssuer(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  change: IssuerChange,
): Promise<number> {
  const { issuer } = change;
  const { config } = ctx.settings();
  const { previous, diff } = issuer;
  const told = tellStories(diff.events, previous?.memory ?? {}, ctx.now(), {
    reopenWindowMs: config.alerts.reopenWindow,
    flapWindowMs: config.alerts.flapWindow,
  });
  // Aggregate events are never read against the 0.5% threshold: they join after the stories.
  const events = [...told.events, ...change.aggregates];
  const routing = {
    channels: config.channels,
    mutes: change.mutes,
    now: ctx.now(),
    options: routeOptionsOf(config),
  };
  const plan = withRegimeEvent(
    planDelivery(events, routing.channels, routing.mutes, routing.now, routing.options),
    regimeOf(ctx, source, change),
    routing,
  );
  if (change.drop !== undefined) logRegimeDrop(ctx, source, change.drop, plan);
  const memory = recordFallsTold(told.memory, plan.logged);
  const keys = store.keys(source.name);
  const committed = await commitPoll(ctx.redis, ctx.prefix, {
    snapshot: { ...diff.next, ...(Object.keys(memory).length > 0 ? { memory } : {}) },
    expectedPolledAt: previous?.polledAt ?? null,
    logged: plan.logged,
    targets: plan.targets,
    suppressed: plan.suppressed,
    eventsKept: config.poll.eventsKept,
    store: { snapshot: keys.snapshot(issuer.key), written: keys.issuers, member: issuer.key },
  });
  if (!committed) return 0;
  const logged = plan.logged.map(({ event }) => event);
  for (const event of logged) ctx.metrics.events.inc({ kind: event.kind });
  return logged.length;
}

/** The regime event of a dropped issuer, with the drop it stands for; none for other issuers. */
function regimeOf(
  ctx: JobContext,
  source: RegisterSourceConfig,
  change: IssuerChange,
): { drop: RegimeDrop; event: PositionEvent } | undefined {
  if (change.drop === undefined) return undefined;
  const now = ctx.now().toISOString();
  const date = change.publishedOn ?? now.slice(0, 10);
  return {
    drop: change.drop,
    event: regimeEvent(change.drop, { source: source.name, detectedAt: now, date }),
  };
}

/** The poll's plan with the regime event added where its closes would have gone. */
function withRegimeEvent(
  plan: DeliveryPlan,
  regime: { drop: RegimeDrop; event: PositionEvent } | undefined,
  routing: Parameters<typeof planRegimeEvent>[2],
): DeliveryPlan {
  if (regime === undefined) return plan;
  const own = planRegimeEvent(regime.drop, regime.event, routing);
  const targets = [...plan.targets];
  for (const target of own.targets) {
    const same = targets.findIndex(
      (t) => t.type === target.type && t.channel === target.channel && t.readyAt === target.readyAt,
    );
    const existing = targets[same];
    if (existing) targets[same] = { ...existing, events: [...existing.events, ...target.events] };
    else targets.push(target);
  }
  return { ...plan, targets, logged: [...plan.logged, ...own.logged] };
}

function logRegimeDrop(
  ctx: JobContext,
  source: RegisterSourceConfig,
  drop: RegimeDrop,
  plan: DeliveryPlan,
): void {
  const channels = plan.targets.map((t) => t.channel);
  ctx.logger.warn(
    { source: source.name, issuer: drop.key, channels },
    `${displayText(drop.name)}: named holders no longer published (${source.name}), told once instead of ${drop.closes.length} closes`,
  );
}

async function notRead(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  reason: string,
  detail: string,
): Promise<void> {
  await store.recordHealth(source.name, { status: 'not-read', reason, detail }, ctx.now());
  ctx.logger.warn({ source: source.name, reason, detail }, 'register not read; nothing changed');
  await ctx.notices.raise(
    sourceNotReadKey(source.name),
    'warning',
    `Register ${source.name} not read`,
    `The ${source.name} register (${source.kind}) was not read: ${reason} (${displayText(detail)}). Nothing it lists changed in shortwatch; it is asked again every ${formatDuration(source.interval)}.`,
  );
}

async function readWell(ctx: JobContext, store: RegisterStore, source: RegisterSourceConfig): Promise<void> {
  const { before } = await store.recordHealth(source.name, { status: 'read' }, ctx.now());
  if (before?.status === 'not-read')
    await ctx.notices.clear(sourceNotReadKey(source.name), `The ${source.name} register is read again.`);
}
