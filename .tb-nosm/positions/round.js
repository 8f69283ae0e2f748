function round2(value) {
  return Math.round(value * 100) / 100;
}
function round4(value) {
  const rounded = Math.round(value * 1e4) / 1e4;
  return rounded === 0 ? 0 : rounded;
}
export {
  round2,
  round4
};
