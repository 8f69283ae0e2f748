import { type HistorySummary, holderKey, type PositionEvent, type Snapshot } from '../positions/index.js';
import { historyEvidence } from '../schedule/index.js';
import type { IssuerPosition, PositionsResponse } from '../upstream/index.js';
import type { JobContext, Settings } from './context.js';

// An issuer's `status=all` history serves two ends, with one request: the last value disclosed by a
// holder that closed (it fell below the 0.5% threshold), and once per issuer the change rate's
// history evidence, kept in the snapshot so the sweep never fetches it.

/**
 * The issuer's `status=all` answer when this poll wants it and the budget has room: closed events to
 * complete (`poll.enrichClosed`), or a first snapshot, which has no history summary yet. Null when
 * neither, when the budget has no room or refuses, or when the fetch fails or answers for something
 * else: the poll then goes on without it, and nothing is tried later.
 */
export async function historyForPoll(
  ctx: JobContext,
  settings: Settings,
  issuerId: string,
  events: readonly PositionEvent[],
  previous: Snapshot | null,
): Promise<PositionsResponse | null> {
  const finals = settings.config.poll.enrichClosed && events.some((e) => e.kind === 'closed');
  if (!finals && previous !== null) return null;
  if (!(await sweepStillFits(ctx, settings))) return null;
  try {
    const history = await ctx.upstream.getPositions(issuerId, 'all');
    // Stored for good once summed up: an answer for another issuer or status must not be.
    if (history.issuer.svc_issuer_id === issuerId && history.status === 'all') return history;
    ctx.logger.debug({ issuerId, answered: history.issuer.svc_issuer_id }, 'status=all answer ignored');
  } catch (error) {
    ctx.logger.debug({ issuerId, err: error }, 'status=all history not fetched');
  }
  return null;
}

/**
 * "When the budget has room": the planner does not count history requests, so one is spent only while
 * today's polling budget still holds a whole sweep of the watchlist and the gate checks still planned
 * today (a day's checks, pro rata for what is left of the day window). Shared with the benchmark.
 */
export function historyFits(input: {
  dayLeft: number;
  reserve: number;
  watched: number;
  gateChecksPerDay: number;
  untilDayEndMs: number;
  dayMs: number;
}): boolean {
  const leftOfDay = Math.min(1, Math.max(0, input.untilDayEndMs / input.dayMs));
  const checksLeft = Math.ceil(input.gateChecksPerDay * leftOfDay);
  return input.dayLeft - input.reserve > input.watched + checksLeft;
}

async function sweepStillFits(ctx: JobContext, { plan, config, watched }: Settings): Promise<boolean> {
  const { day, reserve } = await ctx.budget.usage();
  return historyFits({
    dayLeft: day.left,
    reserve,
    watched: watched.length,
    gateChecksPerDay: plan.gate ? plan.gateChecksPerDay : 0,
    untilDayEndMs: day.resetAt - ctx.now().getTime(),
    dayMs: config.budget.dayWindow,
  });
}

/** Adds to each `closed` event the last value its holder disclosed (usually under 0.5%), from the history. */
export function withFinals(
  events: PositionEvent[],
  history: { data: readonly IssuerPosition[] } | null,
): PositionEvent[] {
  if (history === null) return events;
  return events.map((event) => {
    if (event.kind !== 'closed' || !event.previous) return event;
    const since = event.previous.date;
    const last = history.data
      .filter((row) => holderKey(row.position_holder) === event.holderKey && row.date >= since)
      .sort((a, b) => b.date.localeCompare(a.date) || a.value - b.value)[0];
    return last ? { ...event, final: { value: last.value, date: last.date } } : event;
  });
}

/**
 * The history summary the next snapshot keeps: the one it carries, else one from this poll's history,
 * counted up to the day watching began (the watch record counts the changes since).
 */
export function historySummary(
  next: Snapshot,
  history: { data: readonly { date: string }[] } | null,
  at: Date,
): HistorySummary | undefined {
  if (next.history) return next.history;
  if (history === null) return undefined;
  const since = next.watch ? Date.parse(next.watch.since) : Number.NaN;
  const asOf = Number.isNaN(since) ? at.getTime() : since;
  const evidence = historyEvidence(
    history.data.map((row) => row.date),
    asOf,
  );
  return { ...evidence, at: at.toISOString() };
}
