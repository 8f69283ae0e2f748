import { AccessState, accessFingerprint } from "./access-state.js";
import {
  AccessRevokedError,
  BudgetExhaustedError,
  isAccessRevokedError,
  isBudgetExhaustedError
} from "./budget-errors.js";
import { createBudgetGuard } from "./guard.js";
import { isPlanError, PlanError, planPolling } from "./planner.js";
import {
  RateBudget
} from "./rate-budget.js";
import { nextWindowStart, windowStart } from "./windows.js";
export {
  AccessRevokedError,
  AccessState,
  BudgetExhaustedError,
  PlanError,
  RateBudget,
  accessFingerprint,
  createBudgetGuard,
  isAccessRevokedError,
  isBudgetExhaustedError,
  isPlanError,
  nextWindowStart,
  planPolling,
  windowStart
};
