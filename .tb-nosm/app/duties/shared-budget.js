import { reportSharedBudget } from "../../budget/shared-budget.js";
import { BEAT_MS } from "./beat.js";
function otherDeployments(spenders, own) {
  return spenders.filter((deployment) => deployment !== own);
}
async function recordSpender(deps) {
  const spenders = await deps.budget.spenders.beat(deps.deployment, deps.processId);
  await reportSharedBudget(deps.notices, otherDeployments(spenders, deps.deployment));
}
function sharedBudget(deps) {
  return {
    name: "shared-budget",
    periodMs: BEAT_MS,
    reads: "the credential's spenders record",
    writes: "this process among the spenders; the `budget-shared` notice",
    failure: "could not record this process among the budget spenders",
    run: () => recordSpender({ ...deps, deployment: deps.deployment() })
  };
}
export {
  otherDeployments,
  recordSpender,
  sharedBudget
};
