import { DAY_MS, MINUTE_MS } from "../time/units.js";
import { freeTokens, spendNow } from "./allowance.js";
import { estimateChangeRate, observedEvidence } from "./change-rate.js";
import { checkDue, checksLeftToday, placeChecks } from "./gate-times.js";
import {
  dailyForceLeadMs,
  forcedCount,
  forceLeadMs,
  rankCandidates
} from "./poll-order.js";
function gateDecision(input) {
  const offsets = placeChecks(input.profile, input.checksPerDay, input.tickMs, input.dayMs);
  return {
    check: checkDue(offsets, input.lastCheckMs, input.nowMs, input.dayMs),
    checksLeft: checksLeftToday(offsets, input.nowMs, input.dayMs)
  };
}
function selectPolls(input) {
  const full = input.fullSweeps === true;
  const free = freeTokens(full ? { ...input.budget, checksLeft: 0 } : input.budget);
  if (free === 0) return [];
  const keeping = holdsForRefresh(input) && !releasedAtDayEnd(input);
  const keptForSweep = keeping ? input.issuers.length + input.budget.checksLeft : 0;
  const spendable = Math.max(0, free - keptForSweep);
  const dayMs = input.dayMs ?? DAY_MS;
  const lead = forceLead(input, full, dayMs);
  const forced = Math.min(spendable, forcedCount(input.issuers, input.nowMs, input.boundMs, lead));
  const ranked = rankCandidates(input.issuers, input.versionMs, input.nowMs, input.boundMs, lead, dayMs);
  const changed = ranked.slice(forced).filter((c) => c.reason === "changed");
  if (forced === spendable || changed.length === 0 && !full) return ranked.slice(0, forced);
  if (full) {
    const seen = new Map(input.issuers.map((i) => [i.id, i.seenVersionMs]));
    const moved = ranked.slice(forced).filter((c) => c.reason === "changed" || versionMoved(c, seen.get(c.id) ?? null, input.versionMs));
    return [...ranked.slice(0, forced), ...oldestVersionFirst(moved, seen)].slice(0, spendable);
  }
  const wait = (input.untilRefreshMs ?? dayMs) / dayMs;
  const nowWorth = changed.map((c) => c.changeChance * wait).sort((a, b) => b - a);
  const refreshWorth = input.budget.refreshesLater > 0 ? input.issuers.map((i) => 1 - Math.exp(-i.rate * REFRESH_DAYS)).sort((a, b) => b - a) : [];
  const spend = spendNow(nowWorth, refreshWorth, input.budget.refreshesLater, spendable - forced);
  return [...ranked.slice(0, forced), ...changed.slice(0, spend)];
}
function forceLead(input, full, dayMs) {
  const half = input.boundMs / 2;
  if (!full) return Math.min(half, dailyForceLeadMs(input.untilDayEndMs ?? dayMs, dayMs));
  return releasedAtDayEnd(input) ? Math.min(half, dayMs) : forceLeadMs(input.boundMs, dayMs);
}
function holdsForRefresh(input) {
  if (input.refreshTimesKnown !== true || (input.seenToday ?? 0) > 0) return false;
  return input.budget.refreshesLater >= REFRESH_STILL_LIKELY;
}
function releasedAtDayEnd(input) {
  const sweepMs = input.fullSweepMs ?? 0;
  const minuteMs = input.minuteMs ?? MINUTE_MS;
  const margin = (input.tickMs ?? 0) + Math.max(minuteMs, sweepMs / 4);
  return (input.untilDayEndMs ?? input.dayMs ?? DAY_MS) <= sweepMs + margin;
}
function versionMoved(candidate, seenMs, versionMs) {
  if (candidate.reason !== "stale" || versionMs === null) return false;
  return seenMs === null || seenMs < versionMs;
}
function oldestVersionFirst(changed, seen) {
  const version = (c) => seen.get(c.id) ?? Number.NEGATIVE_INFINITY;
  return [...changed].sort((a, b) => version(a) - version(b) || 0);
}
const REFRESH_STILL_LIKELY = 0.05;
const REFRESH_DAYS = 1;
function snapshotRate(snapshot, nowMs) {
  return estimateChangeRate(
    {
      holderDates: Object.values(snapshot.positions).map((p) => p.date),
      observed: snapshot.watch ? observedEvidence(snapshot.watch, nowMs) : void 0,
      history: snapshot.history
    },
    nowMs
  );
}
export {
  gateDecision,
  selectPolls,
  snapshotRate
};
