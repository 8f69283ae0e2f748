import type { RateBudget } from '../../budget/index.js';
import { reportSharedBudget } from '../../budget/shared-budget.js';
import type { Notices } from '../../state/notices.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** The other deployments among those spending the credential's budget now. */
export function otherDeployments(spenders: readonly string[], own: string): string[] {
  return spenders.filter((deployment) => deployment !== own);
}

/**
 * Records this process among the spenders of the credential's budget and tells the operator while
 * another deployment spends it too: each plans as if the whole plan were its own, so the bounds `plan`
 * promises cannot hold. Cleared once this deployment is the only one left.
 */
export async function recordSpender(deps: {
  budget: Pick<RateBudget, 'spenders'>;
  notices: Notices;
  deployment: string;
  processId: string;
}): Promise<void> {
  const spenders = await deps.budget.spenders.beat(deps.deployment, deps.processId);
  await reportSharedBudget(deps.notices, otherDeployments(spenders, deps.deployment));
}

/** {@link recordSpender} at every beat; `deployment` is read at each (the config in force). */
export function sharedBudget(deps: {
  budget: Pick<RateBudget, 'spenders'>;
  notices: Notices;
  deployment: () => string;
  processId: string;
}): Duty {
  return {
    name: 'shared-budget',
    periodMs: BEAT_MS,
    reads: "the credential's spenders record",
    writes: 'this process among the spenders; the `budget-shared` notice',
    failure: 'could not record this process among the budget spenders',
    run: () => recordSpender({ ...deps, deployment: deps.deployment() }),
  };
}
