import { messageForGroups } from "../channels/coalesced-message.js";
import { issuerGroupKey } from "../channels/event-story.js";
import { messageEvents } from "../channels/message-events.js";
import { eventsDeliveryId } from "../state/delivery-ids.js";
function inflightOf(next, now, extra = {}) {
  return {
    deliveryId: next.deliveryId,
    message: next.message,
    eventIds: next.eventIds,
    attempts: 0,
    partsSent: 0,
    nextAttemptAt: now,
    claimedAt: now,
    ...next.digestBatch ? { digestBatch: next.digestBatch } : {},
    ...extra
  };
}
function composeNext(channel, items, coalesce, perSecond, digestEvents = []) {
  const first = items[0];
  if (!first) return void 0;
  if (first.kind === "message") {
    const { deliveryId, message: message2, digestBatch } = first;
    const eventIds2 = messageEvents(message2).map((e) => e.id);
    return { deliveryId, message: message2, itemIds: [first.id], eventIds: eventIds2, ...digestBatch ? { digestBatch } : {} };
  }
  if (first.kind === "digest") {
    const events2 = [...digestEvents].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
    return {
      deliveryId: first.batchId,
      message: { type: "digest", period: first.period, events: events2 },
      itemIds: [first.id],
      eventIds: events2.map((e) => e.id),
      digestBatch: first.batchId
    };
  }
  const groups = groupByIssuer(items);
  const backlog = groups.length > Math.max(1, Math.floor(perSecond));
  const taken = groups.slice(0, backlog ? Math.min(groups.length, Math.max(1, coalesce(groups))) : 1);
  const events = taken.flatMap((group) => group.events);
  const eventIds = events.map((event) => event.id);
  const message = messageForGroups(taken);
  return { deliveryId: eventsDeliveryId(channel, eventIds), message, itemIds: eventIds, eventIds };
}
function groupByIssuer(items) {
  const groups = /* @__PURE__ */ new Map();
  for (const item of items) {
    if (item.kind !== "event") continue;
    const { event } = item;
    const group = groups.get(issuerGroupKey(event)) ?? { issuer: event.issuer, events: [] };
    group.events.push(event);
    groups.set(issuerGroupKey(event), group);
  }
  return [...groups.values()];
}
export {
  composeNext,
  inflightOf
};
