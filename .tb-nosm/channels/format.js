import { round4 } from "../positions/round.js";
import { wellFormed } from "../text/well-formed.js";
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/gu;
const INVISIBLE = /[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/gu;
const JSON_RAW_INVISIBLE = new RegExp(`${BREAKS.source}|${INVISIBLE.source}`, "gu");
function displayText(raw) {
  return wellFormed(raw).replace(BREAKS, " ").replace(INVISIBLE, "").replace(/\s+/gu, " ").trim();
}
function displayEvent(event) {
  return { ...event, holder: displayText(event.holder), issuer: displayIssuer(event.issuer) };
}
function displayIssuer(issuer) {
  return { ...issuer, id: displayText(issuer.id), name: displayText(issuer.name) };
}
function displayNotice(message) {
  const text = message.text.split("\n").map(displayText).join("\n");
  return { ...message, title: displayText(message.title), text };
}
function displayMessage(message) {
  switch (message.type) {
    case "events":
      return { ...message, issuer: displayIssuer(message.issuer), events: message.events.map(displayEvent) };
    case "batch":
      return {
        ...message,
        groups: message.groups.map((group) => ({
          issuer: displayIssuer(group.issuer),
          events: group.events.map(displayEvent)
        }))
      };
    case "digest":
      return { ...message, events: message.events.map(displayEvent) };
    case "notice":
      return displayNotice(message);
    case "test":
      return message;
  }
}
function jsonChannelMessage(message) {
  return message.type === "notice" ? displayNotice(message) : message;
}
function stringifyVisible(value) {
  return JSON.stringify(value).replace(
    JSON_RAW_INVISIBLE,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`
  );
}
function formatPercent(value) {
  const fixed = round4(value).toFixed(4).replace(/0{1,2}$/, "");
  return `${fixed}%`;
}
function formatDelta(delta) {
  const rounded = round4(delta);
  const sign = rounded > 0 ? "+" : rounded < 0 ? "-" : "\xB1";
  return `${sign}${formatPercent(Math.abs(rounded)).slice(0, -1)} pp`;
}
const KIND_VERB = {
  opened: "opened",
  increased: "raised",
  decreased: "cut",
  closed: "closed"
};
const NAME_MAX = 600;
function clipText(value, max) {
  const chars = Array.from(value);
  if (chars.length <= max) return value;
  return `${chars.slice(0, max - 1).join("").trimEnd()}\u2026`;
}
export {
  KIND_VERB,
  NAME_MAX,
  clipText,
  displayEvent,
  displayMessage,
  displayNotice,
  displayText,
  formatDelta,
  formatPercent,
  jsonChannelMessage,
  stringifyVisible
};
