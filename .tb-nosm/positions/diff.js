import { collapseRows, compareText } from "./collapse.js";
import { eventId, snapshotOccurrence } from "./event-id.js";
import { round4 } from "./round.js";
import {
  EVENT_KINDS
} from "./types.js";
import { collapseRows as collapseRows2 } from "./collapse.js";
function diffPositions(input) {
  const current = collapseRows(input.rows);
  const detectedAt = input.now.toISOString();
  if (input.previous === null && input.onFirstSeen === "baseline")
    return { events: [], next: nextSnapshot(input, current, detectedAt, false), baseline: true };
  const previous = input.previous?.positions ?? {};
  const context = {
    issuer: { id: input.issuer.id, name: input.issuer.name },
    from: snapshotOccurrence(input.previous),
    thresholds: [...new Set(input.thresholds)].sort((a, b) => a - b),
    issuerTotal: { before: totalShort(previous), after: totalShort(current) },
    detectedAt
  };
  const keys = [.../* @__PURE__ */ new Set([...Object.keys(previous), ...Object.keys(current)])].sort(compareText);
  const events = [];
  for (const key of keys) {
    const event = diffHolder(key, own(previous, key), own(current, key), context);
    if (event !== null) events.push(event);
  }
  events.sort((a, b) => compareText(a.holderKey, b.holderKey) || kindRank(a.kind) - kindRank(b.kind));
  return { events, next: nextSnapshot(input, current, detectedAt, events.length > 0), baseline: false };
}
function nextSnapshot(input, positions, polledAt, found) {
  return {
    issuerId: input.issuer.id,
    issuerName: input.issuer.name,
    positions,
    lastUpdated: input.lastUpdated,
    polledAt,
    generation: (input.previous?.generation ?? 0) + 1,
    watch: watchAfter(input.previous, found, polledAt),
    ...input.previous?.history ? { history: input.previous.history } : {}
  };
}
function watchAfter(previous, found, at) {
  if (previous === null) return { since: at, changes: 0 };
  const watch = previous.watch ?? { since: previous.polledAt, changes: 0 };
  return { since: watch.since, changes: watch.changes + (found ? 1 : 0) };
}
function diffHolder(key, before, after, context) {
  const previous = before === void 0 ? null : disclosure(before);
  const current = after === void 0 ? null : disclosure(after);
  const kind = kindOf(previous, current);
  if (kind === null) return null;
  const from = previous?.value ?? 0;
  const to = current?.value ?? 0;
  return {
    id: eventId({ issuerId: context.issuer.id, holderKey: key, from: context.from, kind, previous, current }),
    kind,
    issuer: { ...context.issuer },
    holderKey: key,
    // For `closed` the only name we have is the previous one.
    holder: after?.holder ?? before?.holder ?? key,
    previous,
    current,
    delta: round4(to - from),
    thresholdsCrossed: crossed(context.thresholds, from, to),
    issuerTotal: { ...context.issuerTotal },
    detectedAt: context.detectedAt
  };
}
function kindOf(previous, current) {
  if (previous === null) return current === null ? null : "opened";
  if (current === null) return "closed";
  if (current.value === previous.value) return null;
  return current.value > previous.value ? "increased" : "decreased";
}
function crossed(thresholds, from, to) {
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  return thresholds.filter((t) => low < t && t <= high);
}
function disclosure(position) {
  return { value: round4(position.value), date: position.date };
}
function totalShort(positions) {
  let sum = 0;
  for (const key of Object.keys(positions).sort(compareText)) sum += round4(own(positions, key)?.value ?? 0);
  return round4(sum);
}
function own(positions, key) {
  return Object.hasOwn(positions, key) ? positions[key] : void 0;
}
function kindRank(kind) {
  return EVENT_KINDS.indexOf(kind);
}
export {
  collapseRows2 as collapseRows,
  crossed,
  diffPositions,
  totalShort
};
