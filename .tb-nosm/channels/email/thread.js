import { createHash } from "node:crypto";
import { senderDomain } from "./message-id.js";
function threadDay(events) {
  const newest = events.map((e) => e.detectedAt).filter((at) => !Number.isNaN(Date.parse(at))).sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1);
  return newest === void 0 ? void 0 : new Date(newest).toISOString().slice(0, 10);
}
function threadRootId(channel, issuerId, day, from) {
  const hash = createHash("sha256").update(`${channel}\0${issuerId}`).digest("hex").slice(0, 32);
  return `<thread.${day}.${hash}@${senderDomain(from)}>`;
}
export {
  threadDay,
  threadRootId
};
