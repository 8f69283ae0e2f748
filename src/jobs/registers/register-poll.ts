import { displayText } from '../../channels/format.js';
import { formatDuration } from '../../config/duration.js';
import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import type { PositionEvent } from '../../positions/types.js';
import type { Mute } from '../../routing/index.js';
import { diffAggregates } from '../../sources/aggregate-diff.js';
import { readSource } from '../../sources/read-source.js';
import type { RegisterSnapshot } from '../../sources/types.js';
import { Lease } from '../../state/lease.js';
import type { HeldRead, RegisterStore, StoredRead } from '../../state/register-store.js';
import type { JobContext } from '../context.js';
import { commitObserved } from '../observe/commit-observed.js';
import { regimeEvent, withoutBoundaryArtefacts } from '../observe/regime-event.js';
import { aggregateAlerts } from './aggregate-alerts.js';
import { tellDecision } from './read-decision.js';
import { holdRead, holdVerdict } from './read-hold.js';
import {
  diffRegister,
  isWatched,
  type RegimeDrop,
  type RegisterDiff,
  type RegisterIssuerDiff,
} from './register-diff.js';
import { sourceNotReadKey } from './source-notices.js';

/** What one register poll did. */
export type RegisterPollResult =
  | { outcome: 'not-modified' | 'gone' | 'busy' }
  | { outcome: 'not-read'; reason: string }
  | { outcome: 'held'; text: string }
  | { outcome: 'read'; issuers: number; events: number; drops: number };

/** What a register poll needs beyond the job context. */
export interface RegisterPollDeps {
  store: RegisterStore;
  /** Reads the source again after `delayMs` (a held-back read's `confirm.after`). */
  readAgain?: (source: string, delayMs: number) => Promise<void>;
}

/**
 * One poll of a whole-register source, one at a time across processes (a lease on the source):
 * conditional GET → decode → parse → health → the confirmation guard → per issuer the observation tail
 * (diff, routing, one atomic commit into the outbox). A file that fails health changes nothing and raises
 * the source's notice; a good read (or a 304) clears it. The kept read and its validators are saved
 * together, last, so a crash before then reads the file again and the commits' dedupe drops what was
 * already written; a read held back saves neither, so the next read fetches the file again.
 */
export async function runRegisterPoll(
  ctx: JobContext,
  deps: RegisterPollDeps,
  sourceName: string,
): Promise<RegisterPollResult> {
  const source = ctx.settings().config.sources.find((s) => s.name === sourceName);
  // A source removed by a reload while its job waited.
  if (source === undefined) return { outcome: 'gone' };
  const lease = new Lease(
    ctx.redis,
    deps.store.keys(source.name).readLease,
    `${ctx.processId}|${ctx.now().toISOString()}`,
    Math.max(10_000, source.fetch.timeout),
  );
  if (!(await lease.take())) return { outcome: 'busy' };
  lease.keepAlive();
  try {
    return await readLeased(ctx, deps, source);
  } finally {
    await lease.release();
  }
}

async function readLeased(
  ctx: JobContext,
  deps: RegisterPollDeps,
  source: RegisterSourceConfig,
): Promise<RegisterPollResult> {
  const last = await keptUnlessReshaped(ctx, deps.store, source);
  // The validators and row count of another register's file say nothing of this one's.
  const lastRead = last === null ? undefined : await deps.store.lastRead(source.name);
  const read = await readSource(source, lastRead, { previous: last?.snapshot, now: ctx.now() });
  if (read.status === 'not-read') {
    await notRead(ctx, deps.store, source, read.reason, read.detail);
    return { outcome: 'not-read', reason: read.reason };
  }
  if (read.status === 'not-modified') {
    // The file kept is back (a held read saves no validators): what the held read removed is restored.
    if (await deps.store.release(source.name))
      ctx.logger.info({ source: source.name }, 'held-back read replaced by the file kept: nothing told');
    await readWell(ctx, deps.store, source);
    return { outcome: 'not-modified' };
  }
  const done = await commitRead(ctx, deps.store, source, { snapshot: read.snapshot, last });
  if ('held' in done) {
    await readWell(ctx, deps.store, source);
    const againMs = Date.parse(done.held.readAgainAt ?? '') - ctx.now().getTime();
    if (source.confirm.after !== undefined && deps.readAgain) await deps.readAgain(source.name, againMs);
    return { outcome: 'held', text: done.held.text };
  }
  await deps.store.saveKept(source.name, { snapshot: read.snapshot, read: read.last }, ctx.now());
  await readWell(ctx, deps.store, source);
  return { outcome: 'read', ...done };
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
): Promise<{ events: number; issuers: number; drops: number } | { held: HeldRead }> {
  const verdict = await holdVerdict(ctx, store, source, { last: last?.snapshot, snapshot });
  if (!verdict.commit) return { held: await holdRead(ctx, store, source, verdict, '') };
  const alerts = aggregateAlertsOf(ctx, source, snapshot, last);
  const diff = await diffRead(ctx, store, source, { snapshot, last, alerts, confirmed: verdict.confirmed });
  if (diff.unconfirmed !== undefined) {
    const { emptied, named } = diff.unconfirmed;
    const why = `; ${emptied} of ${named} issuers that named holders name none`;
    return { held: await holdRead(ctx, store, source, verdict, why) };
  }
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
  await tellDecision(ctx, source, { verdict, regime: diff.regime });
  if (events > 0) ctx.logger.info({ source: source.name, events }, 'register read found changes');
  return { events, issuers: diff.issuers.length, drops: diff.drops.length };
}

/** The per-holder diff of a read against the stored snapshots of every issuer the source has. */
async function diffRead(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  input: {
    snapshot: RegisterSnapshot;
    last: StoredRead | null;
    alerts: ReadonlyMap<string, PositionEvent[]>;
    confirmed: boolean;
  },
): Promise<RegisterDiff> {
  const { config } = ctx.settings();
  const { snapshot, last } = input;
  const keys = [
    ...new Set([...(await store.issuerKeys(source.name)), ...snapshot.issuers.map((i) => i.key)]),
  ];
  return diffRegister({
    source,
    snapshot,
    previous: await store.snapshots(source.name, keys),
    now: ctx.now(),
    thresholds: config.poll.thresholds,
    onFirstSeen: config.poll.onFirstSeen,
    ...(last === null ? {} : { listedBefore: new Set(last.snapshot.issuers.map((issuer) => issuer.key)) }),
    alsoCommit: new Set(input.alerts.keys()),
    kept: last?.snapshot,
    confirmed: input.confirmed,
  });
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

/** Hands one issuer's change to the observation tail, under the source's own keys. */
async function commitIssuer(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  change: IssuerChange,
): Promise<number> {
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
      ...(regime === undefined ? {} : { regime }),
      store: { snapshot: keys.snapshot(key), written: keys.issuers, member: key },
    },
    change.mutes,
  );
  if (change.drop !== undefined) logRegimeDrop(ctx, source, change.drop);
  return outcome.logged;
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

function logRegimeDrop(ctx: JobContext, source: RegisterSourceConfig, drop: RegimeDrop): void {
  ctx.logger.warn(
    { source: source.name, issuer: drop.key },
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
