import { formatDuration } from "../config/duration.js";
function channelStall(oldestAt, nowMs, stalledAfterMs) {
  if (oldestAt === null) return { ageMs: null, stalled: false };
  const ageMs = Math.max(0, nowMs - oldestAt);
  return { ageMs, stalled: ageMs > stalledAfterMs };
}
function describeStall(channel, ageMs, stalledAfterMs) {
  return `channel ${channel} stalled: oldest undelivered message waiting ${formatDuration(ageMs)} (delivery.stalledAfter ${formatDuration(stalledAfterMs)})`;
}
function stalledNoticeKey(channel) {
  return `channel-stalled-${channel}`;
}
export {
  channelStall,
  describeStall,
  stalledNoticeKey
};
