import { createHash } from "node:crypto";
import { senderDomain } from "./message-id.js";
import { oneLine } from "./text.js";
const LABEL_MAX = 60;
function listLabel(channel) {
  const label = channel.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, LABEL_MAX).replace(/^-+|-+$/g, "");
  return label || `channel-${createHash("sha256").update(channel).digest("hex").slice(0, 12)}`;
}
function quoted(text) {
  return `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
function listId(channel, from) {
  const label = listLabel(channel);
  const name = oneLine(channel);
  const phrase = PRINTABLE_ASCII.test(name) ? name : label;
  return `${quoted(`shortwatch: ${phrase}`)} <${label}.shortwatch.${senderDomain(from)}>`;
}
export {
  listId
};
