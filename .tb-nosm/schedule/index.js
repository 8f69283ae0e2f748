import { freeTokens, spendNow } from "./allowance.js";
import {
  DEFAULT_PRIOR,
  estimateChangeRate,
  historyEvidence,
  observedEvidence
} from "./change-rate.js";
import { checkDue, checksLeftToday, GATE_FLOOR_SHARE, placeChecks } from "./gate-times.js";
import {
  FOCUS,
  forcedCount,
  forceLeadMs,
  queuePriority,
  rankCandidates
} from "./poll-order.js";
import {
  learnProfile,
  PROFILE_BINS,
  refreshesLater,
  refreshInstant,
  refreshTimesKnown,
  seenToday,
  uniformProfile,
  untilRefreshMs,
  weekdayOf
} from "./refresh-profile.js";
import {
  gateDecision,
  selectPolls,
  snapshotRate
} from "./sweep-plan.js";
export {
  DEFAULT_PRIOR,
  FOCUS,
  GATE_FLOOR_SHARE,
  PROFILE_BINS,
  checkDue,
  checksLeftToday,
  estimateChangeRate,
  forceLeadMs,
  forcedCount,
  freeTokens,
  gateDecision,
  historyEvidence,
  learnProfile,
  observedEvidence,
  placeChecks,
  queuePriority,
  rankCandidates,
  refreshInstant,
  refreshTimesKnown,
  refreshesLater,
  seenToday,
  selectPolls,
  snapshotRate,
  spendNow,
  uniformProfile,
  untilRefreshMs,
  weekdayOf
};
