function windowStart(at, lengthMs) {
  return Math.floor(at / lengthMs) * lengthMs;
}
function nextWindowStart(at, lengthMs) {
  return windowStart(at, lengthMs) + lengthMs;
}
const BOUNDARY_MARGIN_MS = 1e3;
function boundaryMargin(minuteMs) {
  return Math.min(BOUNDARY_MARGIN_MS, minuteMs / 4);
}
export {
  boundaryMargin,
  nextWindowStart,
  windowStart
};
