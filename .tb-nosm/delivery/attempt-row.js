import { isDeliveryError } from "../channels/delivery-error.js";
import { mailParts } from "../channels/email/burst.js";
import { deliveryMessageId } from "../channels/email/message-id.js";
import { messageEvents, messageIssuers } from "../channels/message-events.js";
import { DELIVERY_IDS_LOGGED, DELIVERY_TIMES_LOGGED } from "../state/retention.js";
function answerOf(error) {
  if (error === void 0) return { answer: "ok" };
  const text = error instanceof Error ? error.message : String(error);
  if (!isDeliveryError(error))
    return {
      answer: "error",
      action: "retry",
      cause: error instanceof Error ? error.name : "Error",
      error: text
    };
  return {
    answer: "error",
    action: error.outcome,
    ...error.code === void 0 ? {} : { cause: error.code },
    ...error.status === void 0 ? {} : { status: error.status },
    error: text
  };
}
function messageIdsOf(message, deliveryId, from) {
  return mailParts(message, deliveryId).map((part) => deliveryMessageId(part.deliveryId, from)).join(" ");
}
function distinct(values) {
  return [...new Set(values.filter((value) => value !== ""))].sort().slice(0, DELIVERY_TIMES_LOGGED);
}
function attemptRow(channel, message, deliveryId, error) {
  const events = messageEvents(message);
  return {
    channel: channel.name,
    channelKind: channel.kind,
    deliveryId,
    ...channel.kind === "email" ? { messageId: messageIdsOf(message, deliveryId, channel.from) } : {},
    type: message.type,
    issuers: messageIssuers(message),
    holders: [...new Set(events.map((e) => e.holder))],
    kinds: [...new Set(events.map((e) => e.kind))],
    events: events.length,
    eventIds: events.slice(0, DELIVERY_IDS_LOGGED).map((e) => e.id),
    ...events.length === 0 ? {} : {
      disclosedOn: distinct(events.map((e) => (e.current ?? e.previous)?.date ?? "")),
      firstSeen: distinct(events.map((e) => e.detectedAt))
    },
    ...answerOf(error)
  };
}
export {
  attemptRow
};
