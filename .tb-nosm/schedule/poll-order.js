import { DAY_MS } from "../time/units.js";
const FOCUS = 2;
function forceLeadMs(boundMs, dayMs = DAY_MS) {
  return Math.min(dayMs, boundMs / 20);
}
function dailyForceLeadMs(untilDayEndMs, dayMs = DAY_MS) {
  return untilDayEndMs + dayMs;
}
function forcedCount(issuers, nowMs, boundMs, leadMs = forceLeadMs(boundMs)) {
  const forcedAge = boundMs - leadMs;
  let count = 0;
  for (const issuer of issuers) {
    if (issuer.polledAtMs === null || nowMs - issuer.polledAtMs >= forcedAge) count++;
  }
  return count;
}
function rankCandidates(issuers, versionMs, nowMs, boundMs, leadMs = forceLeadMs(boundMs), dayMs = DAY_MS) {
  const forcedAge = boundMs - leadMs;
  const out = [];
  for (const issuer of issuers) {
    if (issuer.polledAtMs === null) {
      out.push({ id: issuer.id, reason: "new", index: 0, changeChance: 1 });
      continue;
    }
    const age = nowMs - issuer.polledAtMs;
    const missedMs = versionMs === null ? age : issuer.seenVersionMs === null ? age : versionMs - issuer.seenVersionMs;
    const chance = missedMs > 0 ? 1 - Math.exp(-issuer.rate * missedMs / dayMs) : 0;
    if (Number.isFinite(boundMs) && age >= forcedAge) {
      out.push({ id: issuer.id, reason: "stale", index: age, changeChance: chance });
    } else if (versionMs !== null && missedMs > 0) {
      const index = issuer.rate ** FOCUS * (missedMs / dayMs);
      out.push({ id: issuer.id, reason: "changed", index, changeChance: chance });
    }
  }
  return out.sort(
    (a, b) => TIER[a.reason] - TIER[b.reason] || b.index - a.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
const TIER = { new: 0, stale: 1, changed: 2 };
function queuePriority(candidate) {
  if (candidate.reason !== "changed") return 1;
  return 2 + Math.round((1 - candidate.changeChance) * 1e6);
}
export {
  FOCUS,
  dailyForceLeadMs,
  forceLeadMs,
  forcedCount,
  queuePriority,
  rankCandidates
};
