export { AccessState, type AccessStatus, accessFingerprint, type RevokedState } from './access-state.js';
export {
  AccessRevokedError,
  BudgetExhaustedError,
  isAccessRevokedError,
  isBudgetExhaustedError,
} from './budget-errors.js';
export { type BudgetGuard, createBudgetGuard, type GuardOptions } from './guard.js';
export { isPlanError, type Plan, PlanError, type PlanInput, planPolling } from './planner.js';
export {
  type BlockResult,
  type BudgetDecision,
  type BudgetOptions,
  type BudgetUsage,
  type DenyReason,
  RateBudget,
  type RateLimitProbing,
  type WindowUsage,
} from './rate-budget.js';
export { type BudgetWindow, nextWindowStart, windowStart } from './windows.js';
