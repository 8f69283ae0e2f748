const PROFILE_BINS = 96;
const PSEUDO = 0.02;
const HALF_LIFE_DAYS = 14;
function weekdayOf(at, dayMs) {
  return ((Math.floor(at / dayMs) + 4) % 7 + 7) % 7;
}
const KNOWN_AFTER = 5;
function refreshTimesKnown(profile) {
  return profile.observations >= KNOWN_AFTER;
}
function uniformProfile() {
  return {
    shares: Array(PROFILE_BINS).fill(1 / PROFILE_BINS),
    perWeekday: Array(7).fill(1),
    observations: 0
  };
}
function learnProfile(refreshes, nowMs, dayMs) {
  const seen = refreshes.filter((at) => at <= nowMs);
  if (seen.length === 0) return uniformProfile();
  const weight = (at) => 0.5 ** ((nowMs - at) / dayMs / HALF_LIFE_DAYS);
  const bins = Array(PROFILE_BINS).fill(PSEUDO / PROFILE_BINS);
  const byWeekday = Array(7).fill(0);
  let total = PSEUDO;
  for (const at of seen) {
    const w = weight(at);
    const bin = Math.min(PROFILE_BINS - 1, Math.floor(at % dayMs / dayMs * PROFILE_BINS));
    bins[bin] = (bins[bin] ?? 0) + w;
    const day = weekdayOf(at, dayMs);
    if (at < nowMs - nowMs % dayMs) byWeekday[day] = (byWeekday[day] ?? 0) + w;
    total += w;
  }
  return {
    shares: bins.map((b) => b / total),
    perWeekday: perWeekday(byWeekday, Math.min(...seen), nowMs, dayMs, weight),
    observations: seen.length
  };
}
function perWeekday(counts, firstMs, nowMs, dayMs, weight) {
  const days = Array(7).fill(0);
  for (let day = Math.floor(firstMs / dayMs); day < Math.floor(nowMs / dayMs); day++) {
    const at = day * dayMs;
    const w = weight(Math.max(at, firstMs));
    const weekday = weekdayOf(at, dayMs);
    days[weekday] = (days[weekday] ?? 0) + w;
  }
  const watchedDays = days.reduce((s, d) => s + d, 0);
  const mean = watchedDays < 0.5 ? 1 : counts.reduce((s, c) => s + c, 0) / watchedDays;
  return counts.map((count, weekday) => {
    const watched = days[weekday] ?? 0;
    return watched >= 0.5 ? count / watched : mean;
  });
}
function refreshesLater(profile, nowMs, dayMs, seenToday2 = 0) {
  const position = nowMs % dayMs / dayMs * PROFILE_BINS;
  const bin = Math.floor(position);
  let ahead = (profile.shares[bin] ?? 0) * (bin + 1 - position);
  for (let b = bin + 1; b < PROFILE_BINS; b++) ahead += profile.shares[b] ?? 0;
  const expected = profile.perWeekday[weekdayOf(nowMs, dayMs)] ?? 1;
  if (seenToday2 > 0) return Math.min(expected * ahead, Math.max(0, expected - seenToday2));
  const first = Math.min(1, expected);
  const stillToCome = first * ahead;
  const firstLater = stillToCome === 0 ? 0 : stillToCome / (1 - first + stillToCome);
  return firstLater + (expected - first) * ahead;
}
function seenToday(refreshes, nowMs, dayMs) {
  const start = Math.floor(nowMs / dayMs) * dayMs;
  return refreshes.filter((at) => at >= start && at <= nowMs).length;
}
function untilRefreshMs(profile, nowMs, dayMs, later) {
  if (later < 0.5) return dayMs;
  const position = nowMs % dayMs / dayMs * PROFILE_BINS;
  const bin = Math.floor(position);
  const firstPart = (profile.shares[bin] ?? 0) * (bin + 1 - position);
  let ahead = firstPart;
  for (let b2 = bin + 1; b2 < PROFILE_BINS; b2++) ahead += profile.shares[b2] ?? 0;
  let passed = firstPart;
  let b = bin + 1;
  while (b < PROFILE_BINS && passed < ahead / 2) passed += profile.shares[b++] ?? 0;
  return Math.max(0, b / PROFILE_BINS * dayMs - nowMs % dayMs);
}
const PRECISE = /T\d{2}:\d{2}/;
function refreshInstant(lastUpdated, seenAtMs, previousCheckMs, first = false) {
  const stated = Date.parse(lastUpdated);
  if (first) return Math.min(stated, seenAtMs);
  const vouched = PRECISE.test(lastUpdated) && stated <= seenAtMs && (previousCheckMs === null || stated > previousCheckMs);
  return vouched ? stated : seenAtMs;
}
export {
  PROFILE_BINS,
  learnProfile,
  refreshInstant,
  refreshTimesKnown,
  refreshesLater,
  seenToday,
  uniformProfile,
  untilRefreshMs,
  weekdayOf
};
