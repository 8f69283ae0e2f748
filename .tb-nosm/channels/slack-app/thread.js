import { createHash } from "node:crypto";
import { DAY_MS } from "../../time/units.js";
import { zonedDay } from "../time.js";
const MEMORY_SPAN_MS = 2 * DAY_MS;
function newestDetection(events) {
  return events.map((event) => event.detectedAt).filter((at) => !Number.isNaN(Date.parse(at))).sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1);
}
function threadDay(events, timezone) {
  const newest = newestDetection(events);
  return newest === void 0 ? void 0 : zonedDay(newest, timezone);
}
function memoryTtlMs(events, nowMs) {
  const newest = newestDetection(events);
  return (newest === void 0 ? nowMs : Date.parse(newest)) + MEMORY_SPAN_MS - nowMs;
}
function digest(...parts) {
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 24);
}
function threadKey(conversation, issuerId, day) {
  return `thread:${conversation}:${day}:${digest(issuerId)}`;
}
function toldKey(conversation, issuerId, holderKey) {
  return `told:${conversation}:${digest(issuerId, holderKey)}`;
}
export {
  MEMORY_SPAN_MS,
  memoryTtlMs,
  newestDetection,
  threadDay,
  threadKey,
  toldKey
};
