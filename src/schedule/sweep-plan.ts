import { type AllowanceInput, freeTokens, spendNow } from './allowance.js';
import { estimateChangeRate } from './change-rate.js';
import { checkDue, checksLeftToday, placeChecks } from './gate-times.js';
import { forcedCount, type IssuerScheduleState, type PollCandidate, rankCandidates } from './poll-order.js';
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
  // With full sweeps, while a refresh may still come today its sweep will poll every issuer anyway:
  // the tokens of that sweep and of the checks that will see it are not the bound's, or the forced
  // polls would spend them just before the refresh and poll the same issuers twice.
  const keptForSweep =
    full && input.budget.refreshesLater >= REFRESH_STILL_LIKELY
      ? input.issuers.length + input.budget.checksLeft
      : 0;
  const forced = Math.min(
    Math.max(0, free - keptForSweep),
    forcedCount(input.issuers, input.nowMs, input.boundMs),
  );
  const ranked = rankCandidates(input.issuers, input.versionMs, input.nowMs, input.boundMs);
  const changed = ranked.slice(forced).filter((c) => c.reason === 'changed');
  if (forced === free || (changed.length === 0 && !full)) return ranked.slice(0, forced);
  if (full) {
    // Issuers near the bound whose forced poll waited for the refresh are polled as its changes.
    const seen = new Map(input.issuers.map((i) => [i.id, i.seenVersionMs]));
    const moved = ranked
      .slice(forced)
      .filter((c) => c.reason === 'changed' || versionMoved(c, seen.get(c.id) ?? null, input.versionMs));
    return [...ranked.slice(0, forced), ...oldestVersionFirst(moved, seen)].slice(0, free);
  }
  // Worth is delay saved (chance of a change x the wait it spares): a poll now spares a pending change
  // the wait until the expected refresh; a token kept for that refresh spares a fresh change a day.
  const wait = (input.untilRefreshMs ?? DAY_MS) / DAY_MS;
  const nowWorth = changed.map((c) => c.changeChance * wait).sort((a, b) => b - a);
  const refreshWorth =
    input.budget.refreshesLater > 0
      ? input.issuers.map((i) => 1 - Math.exp(-i.rate * REFRESH_DAYS)).sort((a, b) => b - a)
      : [];
  const spend = spendNow(nowWorth, refreshWorth, input.budget.refreshesLater, free - forced);
  return [...ranked.slice(0, forced), ...changed.slice(0, spend)];
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
const DAY_MS = 86_400_000;

/** An issuer's change rate from its snapshot's listed holders and what shortwatch saw of it. */
export function snapshotRate(
  positions: Readonly<Record<string, { date: string }>>,
  nowMs: number,
  observed?: { changes: number; days: number },
): number {
  return estimateChangeRate({ holderDates: Object.values(positions).map((p) => p.date), observed }, nowMs);
}
