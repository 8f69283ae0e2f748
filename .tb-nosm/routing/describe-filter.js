const percentList = (values) => values.map((v) => `${v}%`).join(", ");
function describeFilter(filter) {
  const rules = [
    filter.issuers && `issuers ${filter.issuers.join(", ")}`,
    filter.holders && `holders ${filter.holders.join(", ")}`,
    filter.excludeHolders && `not ${filter.excludeHolders.join(", ")}`,
    filter.kinds && `${filter.kinds.join("/")} only`,
    filter.minValue !== void 0 && `positions of ${filter.minValue}% or more`,
    filter.minDelta !== void 0 && `moves of ${filter.minDelta} pp or more`,
    filter.thresholds && `changes crossing ${percentList(filter.thresholds)}`,
    filter.issuerTotalThresholds && `issuer totals crossing ${percentList(filter.issuerTotalThresholds)}`
  ].filter((rule) => typeof rule === "string");
  return rules.length > 0 ? rules.join("; ") : "every change";
}
export {
  describeFilter
};
