import { round4 } from "../positions/round.js";
import { routeEvents } from "./route.js";
function planDelivery(events, channels, mutes, now, options) {
  const { groups, suppressed, verdicts } = routeEvents(events, channels, mutes, now, options);
  const targets = /* @__PURE__ */ new Map();
  for (const group of groups) {
    const { disposition } = group;
    const type = disposition.action === "stage" ? "digest" : "outbox";
    const channel = disposition.action === "stage" ? disposition.digest : group.channel;
    const readyAt = disposition.action === "defer" ? disposition.until.getTime() : null;
    const key = `${type}|${channel}|${readyAt ?? ""}`;
    const target = targets.get(key) ?? { type, channel, readyAt, events: [] };
    for (const event of group.events)
      if (!target.events.some((e) => e.id === event.id)) target.events.push(event);
    targets.set(key, target);
  }
  const counts = /* @__PURE__ */ new Map();
  for (const s of suppressed) counts.set(s.channel, (counts.get(s.channel) ?? 0) + 1);
  return {
    targets: [...targets.values()].map((target) => withHidden(target, events)),
    suppressed: [...counts].map(([channel, count]) => ({ channel, count })),
    logged: events.map((event, index) => ({ event, routes: verdicts[index] ?? [] }))
  };
}
function withHidden(target, events) {
  const shown = new Set(target.events.map((event) => event.id));
  const hiddenByIssuer = /* @__PURE__ */ new Map();
  for (const event of events) {
    if (shown.has(event.id) || event.aggregate) continue;
    const sum = hiddenByIssuer.get(event.issuer.id) ?? { count: 0, delta: 0 };
    hiddenByIssuer.set(event.issuer.id, { count: sum.count + 1, delta: round4(sum.delta + event.delta) });
  }
  return {
    ...target,
    events: target.events.map((event) => {
      const hidden = hiddenByIssuer.get(event.issuer.id);
      return hidden ? { ...event, hidden } : event;
    })
  };
}
export {
  planDelivery
};
