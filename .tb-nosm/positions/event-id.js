import { createHash } from "node:crypto";
import { round4 } from "./round.js";
const FIRST_SIGHT = "first-sight";
function snapshotOccurrence(snapshot) {
  return snapshot === null ? FIRST_SIGHT : `${snapshot.generation ?? 0}@${snapshot.polledAt}`;
}
function eventId(parts) {
  const canonical = JSON.stringify([
    parts.issuerId,
    parts.holderKey,
    parts.from,
    parts.kind,
    canonicalDisclosure(parts.previous),
    canonicalDisclosure(parts.current)
  ]);
  return `e${createHash("sha256").update(canonical).digest("hex").slice(0, 32)}`;
}
function canonicalDisclosure(disclosure) {
  return disclosure === null ? null : [round4(disclosure.value), disclosure.date];
}
export {
  FIRST_SIGHT,
  eventId,
  snapshotOccurrence
};
