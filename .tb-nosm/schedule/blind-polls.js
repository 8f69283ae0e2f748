const LIST_SHARE = 0.01;
function listWeight(size) {
  return Math.min(1, size * LIST_SHARE / (1 - LIST_SHARE));
}
const MIN_TURN_MS = 1e3;
function blindIntervalMs(input, size) {
  if (size === 0 || input.spendable <= 0 || input.perMinute <= 0) return Number.POSITIVE_INFINITY;
  const byDay = size * Math.max(input.untilDayEndMs, 1) / input.spendable;
  const byMinute = size * input.minuteMs / input.perMinute;
  return Math.max(byDay, byMinute, MIN_TURN_MS);
}
function selectBlindPolls(input) {
  const size = input.issuers.length;
  const interval = blindIntervalMs(input, size + (input.listInRotation ? listWeight(size) : 0));
  if (!Number.isFinite(interval)) return [];
  const spacing = interval / size;
  const end = input.nowMs + input.tickMs;
  const dueAt = (issuer) => issuer.polledAtMs === null ? input.nowMs : issuer.polledAtMs + interval;
  const ordered = [...input.issuers].sort((a, b) => dueAt(a) - dueAt(b) || compare(a.id, b.id));
  const polls = [];
  let previous = Number.NEGATIVE_INFINITY;
  for (const issuer of ordered) {
    const first = Math.max(dueAt(issuer), input.nowMs, previous + spacing);
    previous = first;
    for (let at = first; at < end; at += interval) polls.push({ id: issuer.id, atMs: Math.round(at) });
  }
  polls.sort((a, b) => a.atMs - b.atMs || compare(a.id, b.id));
  return polls.slice(0, Math.max(0, Math.floor(input.spendable)));
}
function blindListIntervalMs(input, size) {
  const weight = listWeight(size);
  if (weight === 0) return blindIntervalMs(input, 1);
  return blindIntervalMs(input, size + weight) / weight;
}
function blindListDue(input) {
  if (input.lastCheckMs === null) return true;
  return input.nowMs - input.lastCheckMs >= input.intervalMs - input.tickMs / 2;
}
function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
export {
  MIN_TURN_MS,
  blindIntervalMs,
  blindListDue,
  blindListIntervalMs,
  listWeight,
  selectBlindPolls
};
