import { displayText } from '../../channels/format.js';
import { formatDuration } from '../../config/duration.js';
import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import { tellStories } from '../../positions/threshold-story.js';
import type { PositionEvent } from '../../positions/types.js';
import { type Mute, planDelivery, recordFallsTold } from '../../routing/index.js';
import { diffAggregates } from '../../sources/aggregate-diff.js';
import { readSource } from '../../sources/read-source.js';
import type { RegisterSnapshot } from '../../sources/types.js';
import { noticeDeliveryId, shortHash } from '../../state/delivery-ids.js';
import { commitPoll } from '../../state/poll-commit.js';
import type { RegisterStore, StoredRead } from '../../state/register-store.js';
import type { JobContext } from '../context.js';
import { aggregateAlerts } from './aggregate-alerts.js';
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
  const read = await readSource(source, await deps.store.lastRead(source.name));
  if (read.status === 'not-read') {
    await notRead(ctx, deps.store, source, read.reason, read.detail);
    return { outcome: 'not-read', reason: read.reason };
  }
  if (read.status === 'not-modified') {
    await readWell(ctx, deps.store, source);
    return { outcome: 'not-modified' };
  }
  const { events, issuers, drops } = await commitRead(ctx, deps.store, source, read.snapshot);
  await deps.store.saveRead(source.name, read.last, ctx.now());
  await readWell(ctx, deps.store, source);
  return { outcome: 'read', issuers, events, drops };
}

async function commitRead(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  snapshot: RegisterSnapshot,
): Promise<{ events: number; issuers: number; drops: number }> {
  const { config } = ctx.settings();
  const last = await store.lastSnapshot(source.name);
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
  });
  // One read of the mutes for the whole file: a read can commit hundreds of issuers.
  const mutes = diff.drops.length + diff.issuers.length > 0 ? await ctx.mutes.list() : [];
  for (const drop of diff.drops) await tellRegimeDrop(ctx, source, drop, mutes);
  let events = 0;
  for (const issuer of [...diff.drops.map((d) => d.silent), ...diff.issuers])
    events += await commitIssuer(ctx, store, source, {
      issuer,
      aggregates: alerts.get(issuer.key) ?? [],
      mutes,
    });
  await store.saveSnapshot(source.name, snapshot, ctx.now());
  if (events > 0) ctx.logger.info({ source: source.name, events }, 'register read found changes');
  return { events, issuers: diff.issuers.length, drops: diff.drops.length };
}

/**
 * The aggregate and scope events of this read against the last one kept, by issuer key; none on the
 * first read (a silent baseline, as for named holders).
 */
function aggregateAlertsOf(
  ctx: JobContext,
  source: RegisterSourceConfig,
  snapshot: RegisterSnapshot,
  last: StoredRead | null,
): Map<string, PositionEvent[]> {
  const byIssuer = new Map<string, PositionEvent[]>();
  if (last === null) return byIssuer;
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

/** Routes and commits one issuer's events with its snapshot, under the source's own keys. */
async function commitIssuer(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  change: { issuer: RegisterIssuerDiff; aggregates: readonly PositionEvent[]; mutes: readonly Mute[] },
): Promise<number> {
  const { issuer, aggregates, mutes } = change;
  const { config } = ctx.settings();
  const { previous, diff } = issuer;
  const told = tellStories(diff.events, previous?.memory ?? {}, ctx.now(), {
    reopenWindowMs: config.alerts.reopenWindow,
    flapWindowMs: config.alerts.flapWindow,
  });
  // Aggregate events are never read against the 0.5% threshold: they join after the stories.
  const events = [...told.events, ...aggregates];
  const plan = planDelivery(events, config.channels, mutes, ctx.now(), {
    confirmedCloses: config.alerts.confirmedCloses,
  });
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
  for (const event of events) ctx.metrics.events.inc({ kind: event.kind });
  return events.length;
}

/**
 * A regime drop: one message per issuer to each channel that would have been told its closes (filters
 * and mutes decide, as for the closes), saying the holders are no longer published. Never "fell below".
 * Queued before the silent commit under an id of the snapshot it moves from: a replay queues nothing twice.
 */
async function tellRegimeDrop(
  ctx: JobContext,
  source: RegisterSourceConfig,
  drop: RegimeDrop,
  mutes: readonly Mute[],
): Promise<void> {
  const { config } = ctx.settings();
  const plan = planDelivery(drop.closes, config.channels, mutes, ctx.now(), {
    confirmedCloses: config.alerts.confirmedCloses,
  });
  // Immediate channels only, at the closes' ready time (after quiet hours); a digest keeps its periods.
  const targets = plan.targets.filter((t) => t.type === 'outbox');
  const key = `register-regime-${source.name}-${shortHash(drop.key, 12)}`;
  const occurrence = drop.closes.map((e) => e.id).join(',');
  const title = `${displayText(drop.name)}: named holders no longer published (${source.name})`;
  const text = `The ${source.name} register (${source.kind}) no longer names the holders of ${displayText(drop.name)} (${drop.key}); last named sum ${drop.lastNamedSum}%. This is a change of what the register publishes, not ${drop.closes.length} closed positions.`;
  const message = { type: 'notice', key, severity: 'info', title, text } as const;
  for (const { channel, readyAt } of targets) {
    await ctx.outbox.enqueue(
      channel,
      noticeDeliveryId(channel, key, occurrence),
      message,
      readyAt ?? undefined,
    );
  }
  ctx.logger.warn({ source: source.name, issuer: drop.key, channels: targets.map((t) => t.channel) }, title);
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
