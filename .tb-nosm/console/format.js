import { thresholdList } from "../channels/event-story.js";
import { displayText, formatDelta, formatPercent } from "../channels/format.js";
function formatThreshold(percent) {
  return thresholdList([percent]);
}
function formatTime(at) {
  if (at === null || at === void 0 || at === "") return "never";
  const ms = typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return String(at);
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
function formatAge(at, nowMs) {
  if (at === null || at === void 0 || at === "") return "";
  const ms = typeof at === "number" ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return "";
  const s = Math.round((nowMs - ms) / 1e3);
  if (s < 0) return `in ${formatSpan(-s)}`;
  return `${formatSpan(s)} ago`;
}
function formatSpan(seconds) {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}
function formatCount(n) {
  return n.toLocaleString("en-GB");
}
function formatSourceUrl(url) {
  if (!URL.canParse(url)) return "";
  const { origin, pathname, search } = new URL(url);
  return `${origin}${pathname}${search === "" ? "" : "?\u2026"}`;
}
export {
  displayText,
  formatAge,
  formatCount,
  formatDelta,
  formatPercent,
  formatSourceUrl,
  formatThreshold,
  formatTime
};
