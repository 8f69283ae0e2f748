import { PROFILE_BINS } from "./refresh-profile.js";
const GATE_FLOOR_SHARE = 0.3;
function placeChecks(profile, checks, tickMs, dayMs) {
  const slots = Math.max(1, Math.floor(dayMs / tickMs));
  if (checks >= slots) return Array.from({ length: slots }, (_, i) => i * tickMs);
  if (checks <= 0) return [];
  const roots = profile.shares.map((share) => Math.sqrt(Math.max(0, share)));
  const rootSum = roots.reduce((s, r) => s + r, 0) || 1;
  const density = roots.map((r) => (1 - GATE_FLOOR_SHARE) * (r / rootSum) + GATE_FLOOR_SHARE / PROFILE_BINS);
  const taken = /* @__PURE__ */ new Set();
  const offsets = [];
  let bin = 0;
  let before = 0;
  for (let k = 0; k < checks; k++) {
    const target = (k + 0.5) / checks;
    while (bin < PROFILE_BINS - 1 && before + (density[bin] ?? 0) < target) before += density[bin++] ?? 0;
    const within = (target - before) / (density[bin] || 1);
    const at = (bin + Math.min(1, Math.max(0, within))) / PROFILE_BINS * dayMs;
    const slot = freeSlot(taken, Math.min(slots - 1, Math.floor(at / tickMs)), slots);
    if (slot === void 0) break;
    taken.add(slot);
    offsets.push(slot * tickMs);
  }
  return offsets.sort((a, b) => a - b);
}
function freeSlot(taken, want, slots) {
  for (let d = 0; d < slots; d++) {
    if (want + d < slots && !taken.has(want + d)) return want + d;
    if (want - d >= 0 && !taken.has(want - d)) return want - d;
  }
  return void 0;
}
function checkDue(offsets, lastCheckMs, nowMs, dayMs) {
  if (lastCheckMs === null || nowMs - lastCheckMs >= dayMs) return true;
  for (let day = Math.floor(lastCheckMs / dayMs); day <= Math.floor(nowMs / dayMs); day++) {
    for (const offset of offsets) {
      const at = day * dayMs + offset;
      if (at > lastCheckMs && at <= nowMs) return true;
    }
  }
  return false;
}
function checksLeftToday(offsets, nowMs, dayMs) {
  const into = nowMs % dayMs;
  return offsets.filter((offset) => offset > into).length;
}
export {
  GATE_FLOOR_SHARE,
  checkDue,
  checksLeftToday,
  placeChecks
};
