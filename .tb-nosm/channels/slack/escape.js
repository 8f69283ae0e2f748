import { wellFormed } from "../../text/well-formed.js";
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
function escapeMrkdwn(text) {
  return wellFormed(text).replace(/[&<>]/g, (char) => ENTITIES[char] ?? char);
}
function shortenForEscaped(raw, max) {
  if (escapeMrkdwn(raw).length <= max) return raw;
  let kept = "";
  let length = 0;
  for (const char of raw) {
    const cost = escapeMrkdwn(char).length;
    if (length + cost > max - 1) break;
    kept += char;
    length += cost;
  }
  return `${kept.trimEnd()}\u2026`;
}
export {
  escapeMrkdwn,
  shortenForEscaped
};
