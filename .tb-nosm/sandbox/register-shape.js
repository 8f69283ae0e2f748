import { round2 } from "../positions/round.js";
const CROWDED_SHARE = 0.06;
const ORDINARY_MAX_HOLDERS = 7;
const CROWDED_MAX_HOLDERS = 15;
const CROWDED_ACTIVITY = 4;
const DEFAULT_CHANGE_RATE = 0.06;
const DRIFT_CEILING = 1.5;
const ORDINARY_HOLDER_WEIGHTS = [5, 32, 21, 14, 10, 8, 6, 4];
const CROWDED_HOLDER_WEIGHTS = [6, 5, 4, 3, 3, 2, 1, 1];
function crowdedCount(issuers) {
  return issuers < 4 ? 0 : Math.max(1, Math.round(issuers * CROWDED_SHARE));
}
function ordinaryHolders(rng) {
  return weightedIndex(rng, ORDINARY_HOLDER_WEIGHTS);
}
function crowdedHolders(rng) {
  return ORDINARY_MAX_HOLDERS + 1 + weightedIndex(rng, CROWDED_HOLDER_WEIGHTS);
}
function positionValue(rng) {
  return round2(0.5 + 2.5 * rng.next() ** 4);
}
function openingValue(rng) {
  return round2(0.5 + 1.5 * rng.next() ** 3);
}
function upChance(value) {
  return value < DRIFT_CEILING ? 0.5 : 0.3;
}
function weightedIndex(rng, weights) {
  const index = rng.weighted([...weights.keys()], (i) => weights[i] ?? 0);
  return index ?? 0;
}
const RATE_MEDIAN = 0.012;
const RATE_SIGMA = 1.5;
const RATE_CAP = 1.2;
function issuerChangeRate(rng) {
  const normal = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(RATE_CAP, RATE_MEDIAN * Math.exp(RATE_SIGMA * normal));
}
export {
  CROWDED_ACTIVITY,
  CROWDED_MAX_HOLDERS,
  CROWDED_SHARE,
  DEFAULT_CHANGE_RATE,
  ORDINARY_MAX_HOLDERS,
  RATE_CAP,
  RATE_MEDIAN,
  RATE_SIGMA,
  crowdedCount,
  crowdedHolders,
  issuerChangeRate,
  openingValue,
  ordinaryHolders,
  positionValue,
  upChance
};
