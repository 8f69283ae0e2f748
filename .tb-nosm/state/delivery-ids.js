import { createHash } from "node:crypto";
function shortHash(text, length = 16) {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}
function eventsDeliveryId(channel, eventIds) {
  return `d-${shortHash(channel, 8)}-${shortHash([...eventIds].sort().join(","), 24)}`;
}
function noticeDeliveryId(channel, key, occurrence) {
  return `n-${shortHash(channel, 8)}-${shortHash(`${key}|${occurrence}`, 24)}`;
}
function digestBatchId(channel, periodEnd) {
  return `dg-${shortHash(channel, 8)}-t${periodEnd}`;
}
function heartbeatDeliveryId(channel, minuteIso) {
  return `hb-${shortHash(channel, 8)}-${minuteIso.slice(0, 16).replace(/[^0-9]/g, "")}`;
}
export {
  digestBatchId,
  eventsDeliveryId,
  heartbeatDeliveryId,
  noticeDeliveryId,
  shortHash
};
