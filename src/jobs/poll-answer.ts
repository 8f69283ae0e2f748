import { Worker } from 'bullmq';
import { isAccessRevokedError, isBudgetExhaustedError } from '../budget/index.js';
import { displayText } from '../channels/format.js';
import { formatDuration } from '../config/duration.js';
import type { Snapshot } from '../positions/index.js';
import { DAY_MS } from '../time/units.js';
import {
  isIssuerNotFoundError,
  isNoApiAccessError,
  isRateLimitedError,
  isUnauthorizedError,
  type PositionsResponse,
} from '../upstream/index.js';
import type { JobContext, Settings } from './context.js';
import { checkAnswer } from './plausibility.js';
import { sweepEvery } from './schedulers.js';
import { isWholeDirectory } from './watchlist.js';

/** A poll that got no positions to diff, and why. */
export type NoAnswer = { outcome: 'missing' | 'revoked' };

/**
 * One `GET positions?status=active` for the issuer, checked for plausibility against the snapshot it will
 * be diffed with. Budget and 429 refusals pause the poll queue; 401/403 and 404 end the poll without a
 * diff; an implausible 200 throws (see plausibility.ts) and changes nothing.
 */
export async function fetchChecked(
  ctx: JobContext,
  settings: Settings,
  issuer: { id: string; name: string },
  previous: Snapshot | null,
): Promise<PositionsResponse | NoAnswer> {
  let response: PositionsResponse;
  try {
    response = await ctx.upstream.getPositions(issuer.id, 'active');
  } catch (error) {
    if (isBudgetExhaustedError(error)) {
      if (error.reason === 'day' || error.reason === 'reserve')
        await raiseBudgetExhausted(ctx, error.retryAt);
      // Pause the whole poll queue until the next token: every poll would be refused until then.
      await ctx.queues.poll.rateLimit(Math.max(250, error.retryAt - ctx.now().getTime()));
      throw Worker.RateLimitError();
    }
    if (isRateLimitedError(error)) {
      // The block is kept in Redis time: the wait is measured on that clock, whatever this host's says.
      const usage = await ctx.budget.usage();
      const waitMs = usage.blockedUntil === null ? 60_000 : usage.blockedUntil - usage.redisAt;
      await ctx.queues.poll.rateLimit(Math.max(250, waitMs));
      throw Worker.RateLimitError();
    }
    if (isAccessRevokedError(error) || isUnauthorizedError(error) || isNoApiAccessError(error)) {
      // The next sweep after access returns plans this issuer again: its snapshot is still old.
      return { outcome: 'revoked' };
    }
    if (isIssuerNotFoundError(error)) return notFound(ctx, settings, issuer);
    throw error;
  }
  const unknownKeys = checkAnswer(response, { issuerId: issuer.id }, previous);
  if (unknownKeys.length > 0) await reportEnvelopeKeys(ctx, unknownKeys);
  return response;
}

/**
 * How long to wait before asking again after the `count`-th 404 in a row: the next sweep first (a 404 may
 * be a deploy or a cache miss upstream), then doubling, up to a day.
 */
export function notFoundBackoffMs(count: number, sweepIntervalMs: number): number {
  return Math.min(DAY_MS, sweepIntervalMs * 2 ** Math.max(0, count - 1));
}

/**
 * A 404 for a watched issuer. While the directory still lists it, it is asked again at the next sweeps
 * with backoff and an ops notice goes out only when it persists (`poll.notFoundNoticeAfter`); an issuer
 * the directory no longer lists is the watchlist problem the sweep reports, asked again daily.
 */
async function notFound(
  ctx: JobContext,
  { config, plan }: Settings,
  issuer: { id: string; name: string },
): Promise<NoAnswer> {
  const now = ctx.now();
  const directory = await ctx.directory.load();
  const listed = directory === null || directory.issuers.some((i) => i.svc_issuer_id === issuer.id);
  const interval = sweepEvery(plan);
  const state = await ctx.pollHealth.notFound(issuer.id, now, (count) =>
    listed ? notFoundBackoffMs(count, interval) : DAY_MS,
  );
  const lasting = now.getTime() - Date.parse(state.since);
  // Under `watchlist: all` an issuer the list dropped is no longer watched: a poll queued before it left is expected to 404.
  const left = !listed && isWholeDirectory(config.watchlist);
  ctx.logger[left ? 'info' : 'warn'](
    {
      issuerId: issuer.id,
      listed,
      notFoundCount: state.count,
      retryAt: new Date(state.retryAt).toISOString(),
    },
    left ? 'issuer that left the directory answered 404 (watchlist: all)' : 'watched issuer answered 404',
  );
  if (listed && lasting >= config.poll.notFoundNoticeAfter) {
    await ctx.notices.raise(
      `issuer-missing-${issuer.id}`,
      'warning',
      'Watched issuer not found upstream',
      `${displayText(issuer.name)} (${displayText(issuer.id)}) has answered 404 for ${formatDuration(lasting)} although the issuer list still names it; it is asked again with backoff up to daily and no position is marked closed. \`shortwatch resume ${issuer.id}\` asks again at the next sweep.`,
    );
  }
  return { outcome: 'missing' };
}

/** An answer carried envelope keys the spec does not name: logged and told once per key set. */
async function reportEnvelopeKeys(ctx: JobContext, keys: string[]): Promise<void> {
  const first = await ctx.pollHealth.sawEnvelopeKeys(keys, ctx.now());
  if (!first) return;
  ctx.logger.warn({ keys }, 'positions answers carry envelope keys the upstream spec does not name');
  await ctx.notices.raise(
    envelopeNoticeKey(keys),
    'warning',
    'The upstream answers with fields shortwatch does not know',
    `Positions answers carry ${keys.map((k) => `\`${k}\``).join(', ')}, which the upstream spec does not name: the data may be incomplete. shortwatch keeps polling and treats answers that say they are one page of several as failures.`,
  );
}

/** The notice key of one set of unknown envelope keys. */
export function envelopeNoticeKey(keys: readonly string[]): string {
  return `upstream-envelope-${[...keys].sort().join('-')}`;
}

/** The day's polling budget is spent: one notice until polling gets tokens again. */
export async function raiseBudgetExhausted(ctx: JobContext, retryAt: number): Promise<void> {
  await ctx.notices.raise(
    'budget-exhausted',
    'warning',
    "Today's polling budget is spent",
    `Polling waits for the next budget window at ${new Date(retryAt).toISOString()}; changes published before then are detected after it. \`shortwatch plan\` shows what fits.`,
  );
}
