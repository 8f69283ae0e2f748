import type { DiffResult, PositionEvent, Snapshot } from '../../positions/index.js';
import { stateKeys } from '../../state/keys.js';
import type { JobContext, Settings } from '../context.js';
import type { NoAnswer } from '../poll-answer.js';
import { type AnswerCloses, answerNeedsConfirmation, countsRefreshCloses } from './disappearance.js';

/** Where one API answer stands: its issuer, the dataset version it was planned for, the snapshot it moves from. */
export interface AnswerAt {
  issuerId: string;
  /** The dataset version ('unversioned' without one). */
  version: string;
  previous: Snapshot | null;
}

/**
 * The mass-disappearance guard on the API: an answer that closes the issuer's whole list, or too much of
 * the watchlist in one refresh (`poll.confirmClosedShare`), is read again at once and the second answer
 * is the one kept; the refresh's count keeps only the closes it confirmed. No read is added: `readAgain`
 * is the one confirming request the poll makes, and an answer that needs none costs none.
 */
export async function confirmedCloses<A extends { diff: DiffResult }>(
  ctx: JobContext,
  settings: Settings,
  at: AnswerAt,
  first: A,
  readAgain: () => Promise<A | NoAnswer>,
): Promise<A | NoAnswer> {
  if (at.previous === null || !answerNeedsConfirmation(await closesOf(ctx, at, first.diff), share(settings)))
    return first;
  const second = await readAgain();
  if ('outcome' in second) return second;
  const [before, after] = [closedCount(first.diff.events), closedCount(second.diff.events)];
  ctx.metrics.closeConfirmations.inc({ result: after >= before ? 'confirmed' : 'refuted' });
  if (after < before) {
    await ctx.redis.decrby(stateKeys(ctx.prefix).closesInRefresh(at.version), before - after);
    ctx.logger.warn(
      { issuerId: at.issuerId, closed: before, confirmed: after },
      'closes refuted by a second answer',
    );
  }
  return second;
}

const share = (settings: Settings) => settings.config.poll.confirmClosedShare;

const closedCount = (events: readonly PositionEvent[]) => events.filter((e) => e.kind === 'closed').length;

/**
 * The answer's closes, and (when it closes some holders but not all) this refresh's closes across the
 * watchlist with it, against the positions the last sweep counted.
 */
async function closesOf(ctx: JobContext, at: AnswerAt, diff: DiffResult): Promise<AnswerCloses> {
  const answer = { closed: closedCount(diff.events), left: Object.keys(diff.next.positions).length };
  if (!countsRefreshCloses(answer)) return answer;
  const key = stateKeys(ctx.prefix).closesInRefresh(at.version);
  const replies =
    (await ctx.redis
      .multi()
      .incrby(key, answer.closed)
      .expire(key, 24 * 3600)
      .hget(stateKeys(ctx.prefix).sweep, 'positions')
      .exec()) ?? [];
  return { ...answer, refreshClosed: Number(replies[0]?.[1]), positions: Number(replies[2]?.[1]) };
}
