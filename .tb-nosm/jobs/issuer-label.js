function withIssuerLabel(plan, label) {
  const name = label?.trim();
  if (!name) return plan;
  const labelled = (event) => ({ ...event, issuer: { ...event.issuer, name } });
  return {
    ...plan,
    targets: plan.targets.map((target) => ({ ...target, events: target.events.map(labelled) })),
    logged: plan.logged.map((entry) => ({ ...entry, event: labelled(entry.event) }))
  };
}
export {
  withIssuerLabel
};
