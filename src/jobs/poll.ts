import { DelayedError, type Job, Worker } from 'bullmq';
import { isAccessRevokedError, isBudgetExhaustedError } from '../budget/index.js';
import { diffPositions, holderKey, type PositionEvent } from '../positions/index.js';
import { routeEvents } from '../routing/index.js';
import {
  isIssuerNotFoundError,
  isNoApiAccessError,
  isRateLimitedError,
  isUnauthorizedError,
  type PositionsResponse,
} from '../upstream/index.js';
import type { JobContext } from './context.js';
import { dispatchGroups } from './dispatch.js';
import { stateKeys } from './keys.js';
import type { PollJobData } from './sweep.js';

/** What one poll did. */
export type PollResult =
  | { outcome: 'changed' | 'unchanged' | 'baseline'; events: number; committed: boolean }
  | { outcome: 'missing' | 'revoked' | 'busy' };

const MISSING_RETRY_MS = 24 * 3600 * 1000;
const LOCK_MS = 120_000;

/**
 * Polls one issuer: token → GET positions (active) → diff against the snapshot → deliveries queued →
 * snapshot committed. That order, with deterministic ids, makes a crash at any point safe: the replay
 * yields the same event and job ids, which BullMQ ignores.
 */
export async function runPoll(
  ctx: JobContext,
  job: Job<PollJobData>,
  token: string | undefined,
): Promise<PollResult> {
  const { issuerId } = job.data;
  const lockKey = `${ctx.prefix}:poll-lock:${issuerId}`;
  const lockValue = `${job.id}-${token ?? ''}`;
  if (!(await takeIssuerLock(ctx, lockKey, lockValue, `${job.id}-`))) {
    // Another worker polls this issuer right now: come back after it rather than diff against a moving snapshot.
    await job.moveToDelayed(ctx.now().getTime() + 2_000, token);
    throw new DelayedError();
  }
  const started = performance.now();
  try {
    const result = await pollLocked(ctx, job);
    ctx.metrics.polls.inc({ outcome: result.outcome });
    return result;
  } finally {
    ctx.metrics.pollDuration.observe((performance.now() - started) / 1000);
    if ((await ctx.redis.get(lockKey)) === lockValue) await ctx.redis.del(lockKey);
  }
}

// Takes over a lock whose value starts with ARGV[1]: one left by an earlier run of the same job.
const TAKEOVER_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if held and string.sub(held, 1, #ARGV[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
`;

/**
 * Locks one issuer for one poll. A lock held under this job's own id was left by a run that died
 * (BullMQ hands a job to a second worker only after the first one's job lock expired), so it is taken
 * over at once instead of blocking the retry until the lock expires.
 */
async function takeIssuerLock(
  ctx: JobContext,
  key: string,
  value: string,
  jobPrefix: string,
): Promise<boolean> {
  if ((await ctx.redis.set(key, value, 'PX', LOCK_MS, 'NX')) !== null) return true;
  return (await ctx.redis.eval(TAKEOVER_SCRIPT, 1, key, jobPrefix, value, LOCK_MS)) === 1;
}

async function pollLocked(ctx: JobContext, job: Job<PollJobData>): Promise<PollResult> {
  const { issuerId, issuerName } = job.data;
  const response = await fetchActive(ctx, issuerId, issuerName);
  if ('outcome' in response) return response;

  const { config } = ctx.settings();
  const previous = await ctx.snapshots.get(issuerId);
  const { events, next, baseline } = diffPositions({
    previous,
    issuer: { id: issuerId, name: response.issuer.name || issuerName },
    rows: response.data,
    lastUpdated: response.last_updated,
    now: ctx.now(),
    thresholds: config.poll.thresholds,
    onFirstSeen: config.poll.onFirstSeen,
  });
  const enriched = await enrichClosed(ctx, issuerId, events);
  if (enriched.length > 0) {
    const mutes = await ctx.mutes.list();
    const { groups, suppressed } = routeEvents(enriched, config.channels, mutes, ctx.now());
    await dispatchGroups(ctx, groups);
    for (const s of suppressed) await ctx.mutes.countSuppressed(s.channel, 1);
    await ctx.eventLog.append(enriched);
    for (const event of enriched) ctx.metrics.events.inc({ kind: event.kind });
  }
  const committed = await ctx.snapshots.commit(next, previous?.polledAt ?? null);
  await ctx.notices.clear('budget-exhausted', 'Polling has budget again.');
  await ctx.notices.clear(`issuer-missing-${issuerId}`, `${issuerName} (${issuerId}) answers again.`);
  if (enriched.length > 0) {
    ctx.logger.info({ issuerId, events: enriched.length, committed }, 'poll found changes');
  }
  const outcome = baseline ? 'baseline' : enriched.length > 0 ? 'changed' : 'unchanged';
  return { outcome, events: enriched.length, committed };
}

async function fetchActive(
  ctx: JobContext,
  issuerId: string,
  issuerName: string,
): Promise<PositionsResponse | { outcome: 'missing' | 'revoked' }> {
  try {
    return await ctx.upstream.getPositions(issuerId, 'active');
  } catch (error) {
    if (isBudgetExhaustedError(error)) {
      if (error.reason === 'day' || error.reason === 'reserve')
        await raiseBudgetExhausted(ctx, error.retryAt);
      // Pause the whole poll queue until the next token: every poll would be refused until then.
      await ctx.queues.poll.rateLimit(Math.max(250, error.retryAt - ctx.now().getTime()));
      throw Worker.RateLimitError();
    }
    if (isRateLimitedError(error)) {
      const blocked = (await ctx.budget.usage()).blockedUntil ?? ctx.now().getTime() + 60_000;
      await ctx.queues.poll.rateLimit(Math.max(250, blocked - ctx.now().getTime()));
      throw Worker.RateLimitError();
    }
    if (isAccessRevokedError(error) || isUnauthorizedError(error) || isNoApiAccessError(error)) {
      // The next sweep after access returns plans this issuer again: its snapshot is still old.
      return { outcome: 'revoked' };
    }
    if (isIssuerNotFoundError(error)) {
      await ctx.redis.set(
        stateKeys(ctx.prefix).missing(issuerId),
        ctx.now().toISOString(),
        'PX',
        MISSING_RETRY_MS,
      );
      await ctx.notices.raise(
        `issuer-missing-${issuerId}`,
        'warning',
        'Watched issuer not found upstream',
        `${issuerName} (${issuerId}) answered 404; it is retried once a day and no positions are marked closed.`,
      );
      return { outcome: 'missing' };
    }
    throw error;
  }
}

/**
 * Adds the last disclosed value (usually under 0.5%) to `closed` events from the full history, when the
 * budget has a token right now; otherwise the events go out as they are, never later.
 */
async function enrichClosed(
  ctx: JobContext,
  issuerId: string,
  events: PositionEvent[],
): Promise<PositionEvent[]> {
  const closed = events.filter((e) => e.kind === 'closed');
  if (closed.length === 0 || !ctx.settings().config.poll.enrichClosed) return events;
  // "When the budget has room": the planner does not count these requests, so only spend one while a
  // whole sweep of the watchlist still fits in today's polling budget.
  const { day, reserve } = await ctx.budget.usage();
  if (day.left - reserve <= ctx.settings().config.watchlist.length) return events;
  let history: PositionsResponse;
  try {
    history = await ctx.upstream.getPositions(issuerId, 'all');
  } catch (error) {
    ctx.logger.debug({ issuerId, err: error }, 'closed events sent without the final disclosure');
    return events;
  }
  return events.map((event) => {
    if (event.kind !== 'closed' || !event.previous) return event;
    const since = event.previous.date;
    const last = history.data
      .filter((row) => holderKey(row.position_holder) === event.holderKey && row.date >= since)
      .sort((a, b) => b.date.localeCompare(a.date) || a.value - b.value)[0];
    return last ? { ...event, final: { value: last.value, date: last.date } } : event;
  });
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
