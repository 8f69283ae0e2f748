import { DAY_MS } from '../time/units.js';
// Which issuers a sweep polls, and in what order. After a dataset refresh every issuer whose snapshot
// predates it may have changed; when the budget cannot poll them all at once, the ones most likely
// to have changed go first. Between refreshes an issuer's index grows with the dataset time it has
// missed, so a quiet issuer's turn comes too, and no issuer waits past the plan's hard bound.

/**
 * How strongly polls follow the change rate: an issuer's index is rate^FOCUS x days missed, so when
 * the budget cannot poll everyone after each refresh, an issuer is polled about rate^FOCUS as often as
 * others. 0.5 is the square-root rule that minimises the mean delay for Poisson changes (Cho and
 * Garcia-Molina's age-optimal policy). Registers publish in batches, so a change found in its own
 * publication window costs minutes and one missed costs a day or more: 2 keeps the busiest issuers,
 * which carry most of the changes, polled after every publication and leaves the quiet ones to the
 * days they missed and the hard bound. It trades a longer tail of quiet issuers' changes for a median
 * in minutes (docs/performance.md).
 */
export const FOCUS = 2;

/** What the sweep knows of one watched issuer. */
export interface IssuerScheduleState {
  id: string;
  /** The dataset version (epoch ms) its snapshot was polled for; null when unknown or absent. */
  seenVersionMs: number | null;
  /** When it was last polled (epoch ms); null without a snapshot. */
  polledAtMs: number | null;
  /** Estimated changes a day. */
  rate: number;
}

/** Why an issuer is polled: no snapshot yet, the hard bound is near, or the dataset moved since. */
export type CandidateReason = 'new' | 'stale' | 'changed';

/** One issuer a sweep may poll, with its place in the order. */
export interface PollCandidate {
  id: string;
  reason: CandidateReason;
  /** Higher first within a reason: the age for `stale`, rate^FOCUS x days missed for `changed`. */
  index: number;
  /** Chance that the issuer has a change its snapshot does not show. */
  changeChance: number;
}

/** How early before the hard bound an issuer is forced: a twentieth of the bound, at most a day. */
export function forceLeadMs(boundMs: number, dayMs = DAY_MS): number {
  return Math.min(dayMs, boundMs / 20);
}

/**
 * How early before the hard bound an issuer is forced when the budget cannot sweep the watchlist for
 * each refresh. Polls are then spent about once a day (after the day's refresh, or at once on a day
 * without one), so the next chance to poll an issuer may be as late as the end of tomorrow: everything
 * that would pass the bound by then is forced now. The planner budgets for it on a typical day as
 * `DAILY_FORCE_LEAD_DAYS` (budget/planner.ts).
 */
export function dailyForceLeadMs(untilDayEndMs: number, dayMs = DAY_MS): number {
  return untilDayEndMs + dayMs;
}

/**
 * Issuers due whatever the budget's pacing: no snapshot, or within `leadMs` of the hard bound (by
 * default {@link forceLeadMs}; longer when the next chance to force them is further away).
 */
export function forcedCount(
  issuers: readonly IssuerScheduleState[],
  nowMs: number,
  boundMs: number,
  leadMs = forceLeadMs(boundMs),
): number {
  const forcedAge = boundMs - leadMs;
  let count = 0;
  for (const issuer of issuers) {
    if (issuer.polledAtMs === null || nowMs - issuer.polledAtMs >= forcedAge) count++;
  }
  return count;
}

/**
 * Every issuer due at `nowMs`, in the order to poll them: new ones, then those within `leadMs` of the
 * hard bound (oldest first), then those the dataset moved past, by index. Issuers already at `versionMs`
 * and younger than the bound are not due.
 */
export function rankCandidates(
  issuers: readonly IssuerScheduleState[],
  versionMs: number | null,
  nowMs: number,
  boundMs: number,
  leadMs = forceLeadMs(boundMs),
  /** The day window's length (`budget.dayWindow`): rates are changes per day of this length. */
  dayMs = DAY_MS,
): PollCandidate[] {
  const forcedAge = boundMs - leadMs;
  const out: PollCandidate[] = [];
  for (const issuer of issuers) {
    if (issuer.polledAtMs === null) {
      out.push({ id: issuer.id, reason: 'new', index: 0, changeChance: 1 });
      continue;
    }
    const age = nowMs - issuer.polledAtMs;
    const missedMs =
      versionMs === null ? age : issuer.seenVersionMs === null ? age : versionMs - issuer.seenVersionMs;
    const chance = missedMs > 0 ? 1 - Math.exp((-issuer.rate * missedMs) / dayMs) : 0;
    if (Number.isFinite(boundMs) && age >= forcedAge) {
      out.push({ id: issuer.id, reason: 'stale', index: age, changeChance: chance });
    } else if (versionMs !== null && missedMs > 0) {
      const index = issuer.rate ** FOCUS * (missedMs / dayMs);
      out.push({ id: issuer.id, reason: 'changed', index, changeChance: chance });
    }
  }
  return out.sort(
    (a, b) =>
      TIER[a.reason] - TIER[b.reason] || b.index - a.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** New issuers first (they have no snapshot to diff against), then forced ones, then the rest. */
const TIER: Record<CandidateReason, number> = { new: 0, stale: 1, changed: 2 };

/** BullMQ priority (1 = first, up to 2,097,152) for a candidate: by its chance of change. */
export function queuePriority(candidate: PollCandidate): number {
  if (candidate.reason !== 'changed') return 1;
  return 2 + Math.round((1 - candidate.changeChance) * 1_000_000);
}
