import { HolderIdentities } from "../positions/holder-identity.js";
import { issuerMatches } from "./match-keys.js";
import { planDelivery } from "./plan-delivery.js";
import {
  isSilenced,
  subscriberChannel,
  subscriberDigestChannel,
  wantsDigest,
  wantsImmediate
} from "./subscriber.js";
function followsIssuer(subscriber, issuer) {
  return subscriber.watch.issuers.some((entry) => issuerMatches(entry, issuer));
}
function followsHolder(subscriber, event, holders) {
  return !event.aggregate && subscriber.watch.holders.some((entry) => holders.matches(entry, event));
}
function subscriberChannelConfig(subscriber, template, issuerFollowed, digest = false) {
  const { prefs } = subscriber;
  const base = subscriberImmediateConfig(subscriber, template, issuerFollowed);
  if (!digest) return base;
  return {
    ...base,
    name: subscriberDigestChannel(subscriber.id),
    mode: "digest",
    schedule: prefs.digestSchedule,
    timezone: prefs.timezone,
    quietHours: void 0
  };
}
function subscriberImmediateConfig(subscriber, template, issuerFollowed) {
  const { prefs, watch } = subscriber;
  const filter = {
    ...prefs.kinds.length > 0 ? { kinds: prefs.kinds } : {},
    ...prefs.minValue === void 0 ? {} : { minValue: prefs.minValue },
    ...prefs.minDelta === void 0 ? {} : { minDelta: prefs.minDelta },
    ...issuerFollowed ? {} : { holders: watch.holders }
  };
  return {
    ...template,
    name: subscriberChannel(subscriber.id),
    to: [subscriber.email],
    filter,
    mode: "immediate",
    quietHours: prefs.quietHours,
    everyChange: false
  };
}
function planSubscribers(events, subscribers, template, mutes, now, options) {
  const targets = [];
  for (const issuerEvents of byIssuer(events)) {
    const issuer = issuerEvents[0]?.issuer;
    if (!issuer) continue;
    for (const subscriber of subscribers) {
      if (isSilenced(subscriber)) continue;
      const issuerFollowed = followsIssuer(subscriber, issuer);
      const wanted = issuerEvents.filter(
        (event) => issuerFollowed && (subscriber.prefs.aggregates || !event.aggregate) || followsHolder(subscriber, event, options?.holders ?? HolderIdentities.none)
      );
      if (wanted.length === 0) continue;
      const channels = [
        ...wantsImmediate(subscriber) ? [subscriberChannelConfig(subscriber, template, issuerFollowed)] : [],
        ...wantsDigest(subscriber) ? [subscriberChannelConfig(subscriber, template, issuerFollowed, true)] : []
      ];
      const plan = planDelivery(issuerEvents, channels, mutes, now, options);
      const ids = new Set(wanted.map((event) => event.id));
      for (const target of plan.targets) {
        const events2 = target.events.filter((event) => ids.has(event.id));
        if (events2.length > 0) targets.push({ ...target, events: events2 });
      }
    }
  }
  return targets;
}
function byIssuer(events) {
  const groups = /* @__PURE__ */ new Map();
  for (const event of events) {
    const group = groups.get(event.issuer.id) ?? [];
    group.push(event);
    groups.set(event.issuer.id, group);
  }
  return [...groups.values()];
}
export {
  followsIssuer,
  planSubscribers,
  subscriberChannelConfig
};
