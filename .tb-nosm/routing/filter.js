import { HolderIdentities } from "../positions/holder-identity.js";
import { round4 } from "../positions/round.js";
import { issuerMatches } from "./match-keys.js";
const PASS = { pass: true };
function crosses(from, to, threshold) {
  const a = round4(from);
  const b = round4(to);
  const t = round4(threshold);
  return a < t && t <= b || b < t && t <= a;
}
function peakValue(event) {
  const after = event.current ?? event.final;
  return Math.max(event.previous?.value ?? 0, after?.value ?? 0);
}
function fail(reason) {
  return { pass: false, reason };
}
function active(list2) {
  return list2 !== void 0 && list2.length > 0;
}
function list(values) {
  return values.join(", ");
}
function checkParties(event, filter, holders) {
  if (active(filter.issuers) && !filter.issuers.some((entry) => issuerMatches(entry, event.issuer))) {
    return fail(`issuer "${event.issuer.name}" (${event.issuer.id}) not in issuers`);
  }
  if (active(filter.holders) && !filter.holders.some((entry) => holders.matches(entry, event))) {
    return fail(`holder "${event.holder}" not in holders`);
  }
  const excluded = filter.excludeHolders?.find((entry) => holders.matches(entry, event));
  if (excluded !== void 0) return fail(`holder "${event.holder}" in excludeHolders ("${excluded}")`);
  if (active(filter.kinds) && !filter.kinds.includes(event.kind)) {
    return fail(`kind ${event.kind} not in kinds (${list(filter.kinds)})`);
  }
  return PASS;
}
function checkSizes(event, filter) {
  if (filter.minValue !== void 0) {
    const peak = round4(peakValue(event));
    if (peak < round4(filter.minValue)) return fail(`value ${peak}% below minValue ${filter.minValue}`);
  }
  if (filter.minDelta !== void 0) {
    const delta = round4(Math.abs(event.delta));
    if (delta < round4(filter.minDelta)) return fail(`delta ${delta} pp below minDelta ${filter.minDelta}`);
  }
  if (active(filter.thresholds)) {
    const from = event.previous?.value ?? 0;
    const to = event.current?.value ?? 0;
    if (!filter.thresholds.some((t) => crosses(from, to, t))) {
      return fail(
        `position ${round4(from)}% \u2192 ${round4(to)}% crosses none of thresholds ${list(filter.thresholds)}`
      );
    }
  }
  if (active(filter.issuerTotalThresholds)) {
    const { before, after } = event.issuerTotal;
    if (!filter.issuerTotalThresholds.some((t) => crosses(before, after, t))) {
      return fail(
        `issuer total ${round4(before)}% \u2192 ${round4(after)}% crosses none of issuerTotalThresholds ${list(filter.issuerTotalThresholds)}`
      );
    }
  }
  return PASS;
}
function matchFilter(event, filter, holders = HolderIdentities.none) {
  const parties = checkParties(event, filter, holders);
  return parties.pass ? checkSizes(event, filter) : parties;
}
export {
  crosses,
  matchFilter,
  peakValue
};
