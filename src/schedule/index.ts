export { type AllowanceInput, freeTokens, spendNow } from './allowance.js';
export {
  type ChangeCount,
  DEFAULT_PRIOR,
  estimateChangeRate,
  historyEvidence,
  observedEvidence,
  type RateEvidence,
  type RatePrior,
} from './change-rate.js';
export { checkDue, checksLeftToday, GATE_FLOOR_SHARE, placeChecks } from './gate-times.js';
export {
  type CandidateReason,
  FOCUS,
  forcedCount,
  forceLeadMs,
  type IssuerScheduleState,
  type PollCandidate,
  queuePriority,
  rankCandidates,
} from './poll-order.js';
export {
  learnProfile,
  PROFILE_BINS,
  type RefreshProfile,
  refreshesLater,
  refreshInstant,
  refreshTimesKnown,
  seenToday,
  uniformProfile,
  untilRefreshMs,
  weekdayOf,
} from './refresh-profile.js';
export {
  type GateInput,
  gateDecision,
  type RatedSnapshot,
  type SelectInput,
  selectPolls,
  snapshotRate,
} from './sweep-plan.js';
