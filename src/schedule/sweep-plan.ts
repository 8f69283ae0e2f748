import { DAY_MS, MINUTE_MS } from '../time/units.js';
import { type AllowanceInput, freeTokens, spendNow } from './allowance.js';
import { type ChangeCount, estimateChangeRate, observedEvidence } from './change-rate.js';
import { checkDue, checksLeftToday, placeChecks } from './gate-times.js';
import {
  dailyForceLeadMs,
  forcedCount,
  forceLeadMs,
  type IssuerScheduleState,
  type PollCandidate,
  rankCandidates,
} from './poll-order.js';
import type { RefreshProfile } from './refresh-profile.js';

// The sweep's two decisions at each tick, shared by the sweep job and the detection benchmark so the
// benchmark measures the code that runs: whether this tick checks the gate, and which polls to queue.

/** What the gate decision needs. */
export interface GateInput {
  nowMs: number;
  dayMs: number;
  /** The sweep's tick: the shortest time between two checks. */
  tickMs: number;
  profile: RefreshProfile;
  checksPerDay: number;
  lastCheckMs: number | null;
}

/** Whether this tick checks the gate, and the checks still planned today after it. */
export function gateDecision(input: GateInput): { check: boolean; checksLeft: number } {
  const offsets = placeChecks(input.profile, input.checksPerDay, input.tickMs, input.dayMs);
  return {
    check: checkDue(offsets, input.lastCheckMs, input.nowMs, input.dayMs),
    checksLeft: checksLeftToday(offsets, input.nowMs, input.dayMs),
  };
}

/** What the poll selection needs. */
export interface SelectInput {
  issuers: readonly IssuerScheduleState[];
  /** The dataset version (epoch ms of `last_updated`), null when the upstream gives none. */
  versionMs: number | null;
  nowMs: number;
  /** The hard bound: no issuer goes unpolled longer. */
  boundMs: number;
  budget: AllowanceInput;
  /** How long until the refresh expected today (`untilRefreshMs`); a day when none is. */
  untilRefreshMs?: number;
  /** Lengths of the budget's windows (`budget.dayWindow`, `budget.minuteWindow`); default a real day and minute. */
  dayMs?: number;
  minuteMs?: number;
  /** Refreshes the gate has seen in today's day window. */
  seenToday?: number;
  /**
   * Whether the refresh profile has seen enough refreshes (`refreshTimesKnown`) to hold tokens back
   * for the one expected later today; nothing is held back before.
   */
  refreshTimesKnown?: boolean;
  /** How long until today's day window ends (its tokens do not carry over). */
  untilDayEndMs?: number;
  /** How long one full sweep of the watchlist takes at the minute cap (`plan.minSweepMs`). */
  fullSweepMs?: number;
  /** The sweep's tick (`sweepEvery(plan)`): a release of held tokens must fall on one. */
  tickMs?: number;
  /**
   * True when the plan pays a full sweep of the watchlist for each refresh it follows
   * (`plan.refreshesPerDay >= 1`, the common case of up to a few hundred issuers). Polls of a refresh
   * already seen then come before the day's later gate checks (a check refused late in the day costs
   * little; a change left unpolled until midnight costs hours), and forced polls yield to the refresh
   * still expected today, so they never take the tokens of its full sweep.
   */
  fullSweeps?: boolean;
}

/**
 * The polls to queue now, in order: what is due, cut to what today's budget pays for. Forced polls
 * (new issuers, the hard bound) take what is free first; the rest is weighed against the refreshes
 * still expected today (`spendNow`).
 */
export function selectPolls(input: SelectInput): PollCandidate[] {
  const full = input.fullSweeps === true;
  const free = freeTokens(full ? { ...input.budget, checksLeft: 0 } : input.budget);
  if (free === 0) return [];
  // While today's first refresh may still come, the tokens of its sweep (the watchlist, or all of
  // them when it is larger) and of the checks that will see it are kept. Spent before it, they would
  // find only older changes and leave its own changes to the next day's tokens, and that day's sweep
  // would then run short in turn; with full sweeps they would poll the same issuers twice. They are let
  // go when too little of the day window is left for a sweep (its tokens do not carry over).
  const keeping = holdsForRefresh(input) && !releasedAtDayEnd(input);
  const keptForSweep = keeping ? input.issuers.length + input.budget.checksLeft : 0;
  const spendable = Math.max(0, free - keptForSweep);
  const dayMs = input.dayMs ?? DAY_MS;
  const lead = forceLead(input, full, dayMs);
  const forced = Math.min(spendable, forcedCount(input.issuers, input.nowMs, input.boundMs, lead));
  const ranked = rankCandidates(input.issuers, input.versionMs, input.nowMs, input.boundMs, lead, dayMs);
  const changed = ranked.slice(forced).filter((c) => c.reason === 'changed');
  if (forced === spendable || (changed.length === 0 && !full)) return ranked.slice(0, forced);
  if (full) {
    // Issuers near the bound whose forced poll waited for the refresh are polled as its changes.
    const seen = new Map(input.issuers.map((i) => [i.id, i.seenVersionMs]));
    const moved = ranked
      .slice(forced)
      .filter((c) => c.reason === 'changed' || versionMoved(c, seen.get(c.id) ?? null, input.versionMs));
    return [...ranked.slice(0, forced), ...oldestVersionFirst(moved, seen)].slice(0, spendable);
  }
  // Worth is delay saved (chance of a change x the wait it spares): a poll now spares a pending change
  // the wait until the expected refresh; a token kept for that refresh spares a fresh change a day.
  const wait = (input.untilRefreshMs ?? dayMs) / dayMs;
  const nowWorth = changed.map((c) => c.changeChance * wait).sort((a, b) => b - a);
  const refreshWorth =
    input.budget.refreshesLater > 0
      ? input.issuers.map((i) => 1 - Math.exp(-i.rate * REFRESH_DAYS)).sort((a, b) => b - a)
      : [];
  const spend = spendNow(nowWorth, refreshWorth, input.budget.refreshesLater, spendable - forced);
  return [...ranked.slice(0, forced), ...changed.slice(0, spend)];
}

/**
 * How long before the hard bound an issuer is forced. When the budget cannot sweep the watchlist for
 * each refresh, polls are spent about once a day, so far enough ahead to last until the end of
 * tomorrow (`dailyForceLeadMs`). With full sweeps, the end of each day window is the last chance before
 * a tomorrow that may hold its tokens all day for a refresh that never comes (a holiday the profile
 * does not know): what would pass the bound by the end of tomorrow is forced then. Never more than
 * half the bound, so an issuer polled since is not forced again.
 */
function forceLead(input: SelectInput, full: boolean, dayMs: number): number {
  const half = input.boundMs / 2;
  if (!full) return Math.min(half, dailyForceLeadMs(input.untilDayEndMs ?? dayMs, dayMs));
  return releasedAtDayEnd(input) ? Math.min(half, dayMs) : forceLeadMs(input.boundMs, dayMs);
}

/**
 * Whether today's tokens are held for its first refresh: the refresh times are known, it has not been
 * seen, and it is still likely. Once it was seen, its own sweep goes first: a correction later in the
 * day cannot be paid a full sweep.
 */
function holdsForRefresh(input: SelectInput): boolean {
  if (input.refreshTimesKnown !== true || (input.seenToday ?? 0) > 0) return false;
  return input.budget.refreshesLater >= REFRESH_STILL_LIKELY;
}

/**
 * Whether too little of the day window is left for one more full sweep: held tokens are let go then,
 * as they do not carry over. The margin is one sweep tick (the release must fall on a tick) and a
 * quarter of the sweep, at least a minute (the gate's share of each minute slows the sweep).
 */
function releasedAtDayEnd(input: SelectInput): boolean {
  const sweepMs = input.fullSweepMs ?? 0;
  const minuteMs = input.minuteMs ?? MINUTE_MS;
  const margin = (input.tickMs ?? 0) + Math.max(minuteMs, sweepMs / 4);
  return (input.untilDayEndMs ?? input.dayMs ?? DAY_MS) <= sweepMs + margin;
}

/** Whether a stale candidate's snapshot predates the dataset version: it may have changed too. */
function versionMoved(candidate: PollCandidate, seenMs: number | null, versionMs: number | null): boolean {
  if (candidate.reason !== 'stale' || versionMs === null) return false;
  return seenMs === null || seenMs < versionMs;
}

/**
 * With full sweeps every changed issuer is polled as soon as the day's tokens allow, without holding
 * any back: the budget pays for them. When a day's tokens still run short (a correction, a late
 * publication), the issuers that have missed the most refreshes go first, by the dataset version
 * their snapshot shows, so no issuer is passed over sweep after sweep for busier ones; within one
 * version the most likely to have changed go first.
 */
function oldestVersionFirst(
  changed: readonly PollCandidate[],
  seen: ReadonlyMap<string, number | null>,
): PollCandidate[] {
  const version = (c: PollCandidate) => seen.get(c.id) ?? Number.NEGATIVE_INFINITY;
  // Array.prototype.sort is stable, so within one version the ranked order stays.
  return [...changed].sort((a, b) => version(a) - version(b) || 0);
}

/** Refreshes still expected today above which forced polls wait for that refresh's full sweep. */
const REFRESH_STILL_LIKELY = 0.05;

/** Days of changes one refresh is taken to publish, and how long a change it misses waits: about daily. */
const REFRESH_DAYS = 1;

/** What the change rate reads of a snapshot (positions/types.ts `Snapshot`). */
export interface RatedSnapshot {
  positions: Readonly<Record<string, { date: string }>>;
  /** Polls that found events since shortwatch first saw the issuer. */
  watch?: { since: string; changes: number };
  /** The issuer's `status=all` history, summed up once (`historyEvidence`). */
  history?: ChangeCount;
}

/**
 * An issuer's change rate from its snapshot alone, so the sweep reads nothing more than the snapshots
 * it already reads: the listed holders' dates, the polls that found events, the history when fetched.
 */
export function snapshotRate(snapshot: RatedSnapshot, nowMs: number): number {
  return estimateChangeRate(
    {
      holderDates: Object.values(snapshot.positions).map((p) => p.date),
      observed: snapshot.watch ? observedEvidence(snapshot.watch, nowMs) : undefined,
      history: snapshot.history,
    },
    nowMs,
  );
}
