function freeTokens(input) {
  return Math.max(0, Math.floor(input.tokensLeft - input.checksLeft - input.queued));
}
function spendNow(nowChances, refreshChances, refreshesLater, tokens) {
  const later = laterValues(refreshChances, refreshesLater);
  let now = 0;
  let kept = 0;
  for (let t = 0; t < tokens && now < nowChances.length; t++) {
    if ((nowChances[now] ?? 0) >= (later[kept] ?? 0)) now++;
    else kept++;
  }
  return now;
}
function laterValues(refreshChances, refreshesLater) {
  if (refreshesLater <= 0) return [];
  const values = [];
  for (let r = 0; r < Math.ceil(refreshesLater); r++) {
    const likely = Math.min(1, refreshesLater - r);
    for (const chance of refreshChances) values.push(chance * likely);
  }
  return values.sort((a, b) => b - a);
}
export {
  freeTokens,
  spendNow
};
