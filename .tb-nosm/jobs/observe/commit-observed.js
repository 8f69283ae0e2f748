import { tellStories } from "../../positions/threshold-story.js";
import {
  planDelivery,
  recordFallsTold,
  routeOptionsOf
} from "../../routing/index.js";
import { commitPoll } from "../../state/poll-commit.js";
import { withIssuerLabel } from "../issuer-label.js";
import { subscriberTargets } from "../subscriber-targets.js";
import { planRegimeEvent } from "./regime-event.js";
async function commitObserved(ctx, settings, change, mutes) {
  const { config } = settings;
  const now = ctx.now();
  const told = tellStories(change.diff.events, change.previous?.memory ?? {}, now, {
    reopenWindowMs: config.alerts.reopenWindow,
    flapWindowMs: config.alerts.flapWindow
  });
  const events = [...told.events, ...change.aggregates ?? []];
  const subscribersOnly = change.store === void 0 && settings.subscriberOnly?.has(change.diff.next.issuerId);
  const routing = {
    channels: subscribersOnly ? [] : config.channels,
    mutes: mutes ?? (events.length > 0 || change.regime ? await ctx.mutes.list() : []),
    now,
    options: routeOptionsOf(config)
  };
  const routed = planDelivery(events, routing.channels, routing.mutes, routing.now, routing.options);
  const plan = withIssuerLabel(withRegimeEvent(routed, change.regime, routing), change.label);
  const memory = recordFallsTold(told.memory, plan.logged);
  const committed = await commitPoll(ctx.redis, ctx.prefix, {
    snapshot: {
      ...change.diff.next,
      ...change.snapshot,
      ...Object.keys(memory).length > 0 ? { memory } : {}
    },
    expectedPolledAt: change.previous?.polledAt ?? null,
    logged: plan.logged,
    targets: [
      ...plan.targets,
      ...await subscriberTargets(
        ctx,
        config,
        plan.logged.map(({ event }) => event),
        routing.mutes
      )
    ],
    suppressed: plan.suppressed,
    eventsKept: config.poll.eventsKept,
    ...change.store === void 0 ? {} : { store: change.store }
  });
  if (committed) for (const { event } of plan.logged) ctx.metrics.events.inc({ kind: event.kind });
  return { committed, told: events.length, logged: committed ? plan.logged.length : 0 };
}
function withRegimeEvent(plan, regime, routing) {
  if (regime === void 0) return plan;
  const own = planRegimeEvent(regime.drop, regime.event, routing);
  const targets = [...plan.targets];
  for (const target of own.targets) {
    const same = targets.findIndex(
      (t) => t.type === target.type && t.channel === target.channel && t.readyAt === target.readyAt
    );
    const existing = targets[same];
    if (existing) targets[same] = { ...existing, events: [...existing.events, ...target.events] };
    else targets.push(target);
  }
  return { ...plan, targets, logged: [...plan.logged, ...own.logged] };
}
export {
  commitObserved
};
