import type { DiffResult, PositionEvent, Snapshot } from '../../positions/index.js';
import { stateKeys } from '../../state/keys.js';
import type { JobContext, Settings } from '../context.js';
import { type RegimeDrop, regimeDrop } from '../registers/register-diff.js';
import { sweepEvery } from '../schedulers.js';
import { isMassEnding, pastNamedHolders } from './boundary.js';
import { regimeEvent } from './regime-event.js';

/** What the API's answer for an issuer whose named holders went turns into. */
export type EmptiedVerdict =
  | { kind: 'closes' }
  | { kind: 'wait'; untilMs: number }
  | { kind: 'regime'; by: 'calendar' | 'share'; emptied: number; named: number };

/** One issuer's answer read against its snapshot, and where it stands. */
export interface EmptiedInput {
  issuerId: string;
  /** The dataset version the poll was planned for ('unversioned' without one). */
  version: string;
  /** The watchlist entry's market (`isin` or `market`). */
  market: string | undefined;
  previous: Snapshot | null;
  diff: DiffResult;
}

/**
 * The regime boundary on the API, where one poll sees one issuer: past its market's boundary any close is
 * the boundary; an issuer whose whole list emptied waits `poll.emptiedConfirmAfter` (the other polls of the
 * dataset version record theirs), then a confirming read decides: more than `regimeBoundary.share` of the
 * watched issuers that named holders emptied in this version is a regime change, fewer are closes.
 */
export async function emptiedVerdict(
  ctx: JobContext,
  settings: Settings,
  input: EmptiedInput,
): Promise<EmptiedVerdict> {
  const { regimeBoundary } = settings.config.poll;
  const key = stateKeys(ctx.prefix).emptiedInRefresh(input.version);
  const closes = input.diff.events.filter((e) => e.kind === 'closed').length;
  const nowMs = ctx.now().getTime();
  if (closes > 0 && pastNamedHolders(regimeBoundary, input.market, ctx.now().toISOString().slice(0, 10)))
    return { kind: 'regime', by: 'calendar', emptied: 1, named: 1 };
  const before = Object.keys(input.previous?.positions ?? {}).length;
  if (before === 0 || Object.keys(input.diff.next.positions).length > 0) {
    // Restored (or never emptied): whatever an earlier answer emptied counts no more.
    await ctx.redis.hdel(key, input.issuerId);
    return { kind: 'closes' };
  }
  const replies = await ctx.redis
    .multi()
    .hsetnx(key, input.issuerId, String(nowMs))
    .expire(key, 86_400)
    .hget(key, input.issuerId)
    .exec();
  const heldAt = Number(replies?.[2]?.[1] ?? nowMs);
  const untilMs = heldAt + (settings.config.poll.emptiedConfirmAfter ?? sweepEvery(settings.plan));
  if (nowMs < untilMs) return { kind: 'wait', untilMs };
  const counts = await emptiedCounts(ctx, settings, key);
  return isMassEnding({ ...counts, share: regimeBoundary.share })
    ? { kind: 'regime', by: 'share', ...counts }
    : { kind: 'closes' };
}

/** Issuers emptied in this version, of the watched issuers that named holders (those with positions, and those). */
async function emptiedCounts(
  ctx: JobContext,
  settings: Settings,
  key: string,
): Promise<{ emptied: number; named: number }> {
  const emptied = new Set(await ctx.redis.hkeys(key));
  const snapshots = await ctx.snapshots.getMany(settings.watched.map((w) => w.id));
  const named = new Set(emptied);
  for (const [id, snapshot] of snapshots) if (Object.keys(snapshot.positions).length > 0) named.add(id);
  return { emptied: emptied.size, named: named.size };
}

/**
 * A regime verdict on one issuer: its closes as one regime event (the boundary), and the ops notice
 * saying what decided it, once per issuer (the calendar) or once per dataset version (the share).
 */
export async function regimeOfVerdict(
  ctx: JobContext,
  issuer: { key: string; name: string; version: string | null | undefined },
  change: { previous: Snapshot | null; diff: DiffResult },
  verdict: Extract<EmptiedVerdict, { kind: 'regime' }>,
): Promise<{ drop: RegimeDrop; event: PositionEvent }> {
  const { key, name } = issuer;
  const drop = regimeDrop({ key, name, ...change });
  const now = ctx.now().toISOString();
  const event = regimeEvent(drop, { detectedAt: now, date: now.slice(0, 10) });
  const version = issuer.version ?? 'unversioned';
  const why =
    verdict.by === 'calendar'
      ? `${name} (${key}) is in a market whose named holders have ended (the calendar, or poll.regimeBoundary.namedHoldersUntil)`
      : `${verdict.emptied} of ${verdict.named} watched issuers that named holders name none in dataset version ${version}, more than poll.regimeBoundary.share, and a confirming read agreed`;
  await ctx.notices.tell(
    `upstream-regime-${verdict.by === 'calendar' ? key : 'share'}-${version}`,
    'info',
    'Named holders no longer published by the upstream',
    `${why}: told once per issuer as "named holders no longer published", not as closes.`,
  );
  return { drop, event };
}
