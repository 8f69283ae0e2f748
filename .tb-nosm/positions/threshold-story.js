import { DAY_MS } from "../time/units.js";
const DISCLOSURE_THRESHOLD = 0.5;
function isAbove(disclosure) {
  return disclosure !== null && disclosure.value >= DISCLOSURE_THRESHOLD;
}
function crossesThreshold(event) {
  return isAbove(event.previous) !== isAbove(event.current);
}
function daysBetween(from, to) {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / DAY_MS) : 0;
}
function storyOf(event, memory, now, windows) {
  const { previous, current } = event;
  if (isAbove(previous) && !isAbove(current)) return { kind: "fell-below" };
  if (previous !== null && current === null) {
    const toldTo = memory?.below?.toldTo;
    return {
      kind: "below-confirmed",
      fellBelowOn: memory?.below?.date ?? previous.date,
      ...toldTo === void 0 ? {} : { toldTo }
    };
  }
  if (!isAbove(previous) && isAbove(current) && current !== null) {
    const below = memory?.below ?? (previous ? { date: previous.date, at: event.detectedAt } : void 0);
    if (!below || now - Date.parse(below.at) > windows.reopenWindowMs) return void 0;
    return { kind: "back-above", fellBelowOn: below.date, daysBelow: daysBetween(below.date, current.date) };
  }
  return void 0;
}
function belowMemory(event) {
  const listed = event.current ?? event.final ?? event.previous;
  return { date: listed?.date ?? event.detectedAt.slice(0, 10), at: event.detectedAt };
}
function tellStories(events, previousMemory, now, windows) {
  const at = now.getTime();
  const memory = pruneMemory(previousMemory, at, windows);
  const told = events.map((event) => {
    const before = Object.hasOwn(memory, event.holderKey) ? memory[event.holderKey] : void 0;
    const story = storyOf(event, before, at, windows);
    const after = { ...before };
    if (story?.kind === "fell-below") after.below = belowMemory(event);
    if (story?.kind === "below-confirmed") after.below = closedBelow(before?.below ?? belowMemory(event));
    if (isAbove(event.current)) delete after.below;
    let hold = after.hold && at < Date.parse(after.hold.until) ? after.hold : void 0;
    if (crossesThreshold(event)) {
      const last = after.lastCrossing === void 0 ? Number.NaN : Date.parse(after.lastCrossing);
      if (!hold && windows.flapWindowMs > 0 && at - last <= windows.flapWindowMs) {
        hold = { since: event.detectedAt, until: new Date(at + windows.flapWindowMs).toISOString() };
      }
      after.lastCrossing = event.detectedAt;
    }
    if (hold) after.hold = hold;
    else delete after.hold;
    setMemory(memory, event.holderKey, after);
    return { ...event, ...story ? { story } : {}, ...hold ? { hold } : {} };
  });
  return { events: told, memory: sortedMemory(memory) };
}
function closedBelow(below) {
  return { date: below.date, at: below.at };
}
function pruneMemory(memory, at, windows) {
  const kept = {};
  for (const [key, entry] of Object.entries(memory)) {
    const next = {};
    const open = entry.below?.toldTo !== void 0;
    if (entry.below && (open || at - Date.parse(entry.below.at) <= windows.reopenWindowMs))
      next.below = entry.below;
    if (entry.lastCrossing && at - Date.parse(entry.lastCrossing) <= windows.flapWindowMs)
      next.lastCrossing = entry.lastCrossing;
    if (entry.hold && at < Date.parse(entry.hold.until)) next.hold = entry.hold;
    setMemory(kept, key, next);
  }
  return kept;
}
function setMemory(memory, key, entry) {
  if (Object.keys(entry).length === 0) delete memory[key];
  else
    Object.defineProperty(memory, key, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true
    });
}
function sortedMemory(memory) {
  const sorted = {};
  for (const key of Object.keys(memory).sort((a, b) => a < b ? -1 : a > b ? 1 : 0))
    setMemory(sorted, key, memory[key] ?? {});
  return sorted;
}
export {
  DISCLOSURE_THRESHOLD,
  crossesThreshold,
  isAbove,
  tellStories
};
