const MARKET_BOUNDARIES = [
  { market: "GB", namedUntil: "2026-07-10", replacedFrom: "2026-07-13", what: "the FCA's ANSP" }
];
const ISIN = /^([A-Z]{2})[A-Z0-9]{9}\d$/u;
function marketOf(issuer) {
  if (issuer.market !== void 0) return issuer.market.toUpperCase();
  return issuer.isin === void 0 ? void 0 : ISIN.exec(issuer.isin)?.[1];
}
function passedBoundary(market, date) {
  return MARKET_BOUNDARIES.find((b) => b.market === market && date >= b.replacedFrom);
}
function pastNamedHolders(boundary, market, date) {
  const until = boundary.namedHoldersUntil;
  return passedBoundary(market, date) !== void 0 || until !== void 0 && date > until;
}
const MASS_ENDING_FLOOR = 3;
function isMassEnding(input) {
  return input.emptied >= MASS_ENDING_FLOOR && input.emptied > input.share * input.named;
}
export {
  MARKET_BOUNDARIES,
  MASS_ENDING_FLOOR,
  isMassEnding,
  marketOf,
  passedBoundary,
  pastNamedHolders
};
