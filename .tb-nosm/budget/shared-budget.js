const BUDGET_SHARED_NOTICE = "budget-shared";
const TITLE = "Another deployment spends this API key's budget";
function sharedBudgetText(others) {
  const names = others.map((d) => `\`${d}\``);
  const who = names.length === 1 ? `Deployment ${names[0]} polls` : `Deployments ${names.slice(0, -1).join(", ")} and ${names.at(-1)} poll`;
  return `${who} with the same API key on this Redis. The upstream's caps are the key's, so all count in one budget, while each plans as if the whole plan were its own: polls come later than \`shortwatch plan\` says. Give each deployment its own API key.`;
}
async function reportSharedBudget(notices, others) {
  const active = (await notices.list()).find((notice) => notice.key === BUDGET_SHARED_NOTICE);
  if (others.length === 0) {
    if (active)
      await notices.clear(BUDGET_SHARED_NOTICE, "No other deployment spends this API key's budget now.");
    return;
  }
  const text = sharedBudgetText(others);
  if (active?.text === text) return;
  if (active) await notices.clear(BUDGET_SHARED_NOTICE, "The deployments sharing this API key changed.");
  await notices.raise(BUDGET_SHARED_NOTICE, "warning", TITLE, text);
}
export {
  BUDGET_SHARED_NOTICE,
  reportSharedBudget,
  sharedBudgetText
};
