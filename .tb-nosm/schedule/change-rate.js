import { DAY_MS } from "../time/units.js";
const DEFAULT_PRIOR = { perDay: 0.01, days: 10 };
const HORIZON_DAYS = 365;
function fromHolders(dates, nowMs) {
  let waited = 0;
  for (const date of dates) {
    const at = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(at)) continue;
    waited += Math.min(HORIZON_DAYS, Math.max(0.5, (nowMs - at) / DAY_MS));
  }
  const k = dates.length;
  return k === 0 ? { changes: 0, days: 0 } : { changes: k, days: waited / k };
}
function historyEvidence(dates, asOfMs) {
  const since = asOfMs - HORIZON_DAYS * DAY_MS;
  let first = asOfMs;
  const days = /* @__PURE__ */ new Set();
  for (const date of dates) {
    const at = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(at) || at < since || at > asOfMs) continue;
    days.add(date);
    first = Math.min(first, at);
  }
  const covered = dates.length === 0 ? 0 : Math.max(1, (asOfMs - Math.min(first, since)) / DAY_MS);
  return { changes: days.size, days: Math.min(HORIZON_DAYS, covered) };
}
function observedEvidence(watch, nowMs) {
  const since = Date.parse(watch.since);
  if (Number.isNaN(since)) return { changes: 0, days: 0 };
  return { changes: watch.changes, days: Math.max(0, (nowMs - since) / DAY_MS) };
}
function estimateChangeRate(evidence, nowMs, prior = DEFAULT_PRIOR) {
  let changes = prior.perDay * prior.days;
  let days = prior.days;
  for (const part of [
    fromHolders(evidence.holderDates, nowMs),
    evidence.observed ?? { changes: 0, days: 0 },
    evidence.history ?? { changes: 0, days: 0 }
  ]) {
    changes += part.changes;
    days += part.days;
  }
  return changes / days;
}
export {
  DEFAULT_PRIOR,
  estimateChangeRate,
  historyEvidence,
  observedEvidence
};
