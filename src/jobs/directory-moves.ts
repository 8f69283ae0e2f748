import type { Issuer } from '../upstream/schemas.js';
import type { JobContext } from './context.js';
import { isWholeDirectory } from './watchlist.js';

/** Issuers a fresh issuer list adds and drops against the one saved before it. */
export interface DirectoryMoves {
  joined: Issuer[];
  left: string[];
}

/** Most ids one log line names; the counts are always whole. */
const IDS_SHOWN = 20;

/** What changed between the ids listed before and the fresh list. Pure. */
export function directoryMoves(before: readonly string[], issuers: readonly Issuer[]): DirectoryMoves {
  const was = new Set(before);
  const now = new Set(issuers.map((issuer) => issuer.svc_issuer_id));
  return {
    joined: issuers.filter((issuer) => !was.has(issuer.svc_issuer_id)),
    left: before.filter((id) => !now.has(id)),
  };
}

/**
 * Under `watchlist: all` issuers joining and leaving the directory is the watchlist doing its job, not a
 * problem: logged at info. One that joined is polled from this sweep on, its first poll a silent baseline;
 * one that left is no longer polled and raises no notice, and its snapshot is kept, so that it resumes
 * where it stopped if it is listed again. `before` is null when no list was saved yet (nothing moved).
 */
export function logDirectoryMoves(
  ctx: JobContext,
  before: readonly string[] | null,
  issuers: readonly Issuer[],
): void {
  if (before === null || !isWholeDirectory(ctx.settings().config.watchlist)) return;
  const { joined, left } = directoryMoves(before, issuers);
  if (joined.length > 0) {
    ctx.logger.info(
      { joined: joined.length, ids: joined.slice(0, IDS_SHOWN).map((i) => i.svc_issuer_id) },
      'issuers joined the directory: polled from now on (watchlist: all), each first poll a silent baseline',
    );
  }
  if (left.length > 0) {
    ctx.logger.info(
      { left: left.length, ids: left.slice(0, IDS_SHOWN) },
      'issuers left the directory: no longer polled (watchlist: all); their snapshots are kept',
    );
  }
}
