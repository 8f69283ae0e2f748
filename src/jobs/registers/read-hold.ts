import type { RegisterSourceConfig } from '../../config/schema/sources.js';
import type { RegisterSnapshot } from '../../sources/types.js';
import type { HeldRead, RegisterStore } from '../../state/register-store.js';
import type { JobContext } from '../context.js';
import {
  type Disappearance,
  describeDisappearance,
  disappearance,
  type Listing,
  needsConfirmation,
} from '../observe/disappearance.js';

/** Whether a read may be committed: it removes little, or a later read agreed with the one held back. */
export interface HoldVerdict {
  /** Commit it; else hold it back (nothing closes or ends) until a confirming read. */
  commit: boolean;
  /** This read agrees with the one held back before it. */
  confirmed: boolean;
  /** The read held back before this one, if any (released once this one commits). */
  held: HeldRead | null;
  removed: Disappearance;
}

/** What a register read lists: per issuer key, the keys of its named holders. */
export function listingOf(snapshot: RegisterSnapshot): Listing {
  return new Map(snapshot.issuers.map((issuer) => [issuer.key, issuer.positions.map((p) => p.holderKey)]));
}

/**
 * The confirmation guard of a register read against the last one kept: a read that removes more than
 * `confirm.share` of its issuers or named holders is held back; a later read (after `confirm.after`,
 * default the next read) that removes the same agrees, and commits. A read that restores the rows
 * commits too, and its diff against the stored snapshots is only what really changed.
 */
export async function holdVerdict(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  reads: { last: RegisterSnapshot | undefined; snapshot: RegisterSnapshot },
): Promise<HoldVerdict> {
  const held = await store.held(source.name);
  const removed = disappearance(
    reads.last === undefined ? new Map() : listingOf(reads.last),
    listingOf(reads.snapshot),
  );
  const waited = (h: HeldRead) =>
    source.confirm.after === undefined || ctx.now().getTime() - Date.parse(h.since) >= source.confirm.after;
  const confirmed = held !== null && held.fingerprint === removed.fingerprint && waited(held);
  const commit = confirmed || !needsConfirmation(removed, source.confirm.share);
  return { commit, confirmed, held, removed };
}

/** Holds a read back, shown in `status` and the console; the first hold of it sets its `since`. */
export async function holdRead(
  ctx: JobContext,
  store: RegisterStore,
  source: RegisterSourceConfig,
  verdict: Pick<HoldVerdict, 'held' | 'removed'>,
  why: string,
): Promise<HeldRead> {
  const now = ctx.now();
  const same = verdict.held?.fingerprint === verdict.removed.fingerprint ? verdict.held : null;
  const since = same?.since ?? now.toISOString();
  const againMs = Date.parse(since) + (source.confirm.after ?? source.interval);
  const held: HeldRead = {
    fingerprint: verdict.removed.fingerprint,
    since,
    text: `${describeDisappearance(verdict.removed)}${why}: held back until a confirming read`,
    readAgainAt: new Date(Math.max(againMs, now.getTime())).toISOString(),
  };
  await store.hold(source.name, held);
  if (same === null)
    ctx.logger.warn(
      { source: source.name, removed: verdict.removed },
      `register read held back: ${held.text}`,
    );
  return held;
}
