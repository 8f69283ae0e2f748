import { routeOptionsOf } from "../routing/index.js";
import { planSubscribers } from "../routing/plan-subscribers.js";
async function subscriberTargets(ctx, config, events, mutes) {
  const settings = config.subscribers;
  if (!settings || events.length === 0) return [];
  const template = config.channels.find(
    (c) => c.name === settings.email && c.kind === "email"
  );
  if (!template) return [];
  const issuers = [...new Map(events.map((event) => [event.issuer.id, event.issuer])).values()];
  const candidates = await ctx.subscribers.candidates(issuers);
  return planSubscribers(events, candidates, template, mutes, ctx.now(), routeOptionsOf(config));
}
export {
  subscriberTargets
};
