// When the dataset refreshes, learned from the `last_updated` values the gate has seen. Regulators
// publish at fixed times (most at about 15:30 local on business days), so the refreshes of the last
// weeks say when the next one is likely: by time of day (pooled over all days) and by weekday (none
// on weekends). Recent refreshes weigh more, so a clock change or a new habit is learned in a week or two.

/** Bins of the day the time-of-day shares are kept in (15 minutes on a real day). */
export const PROFILE_BINS = 96;

/** Weight of the even prior under the learned shares. */
const PSEUDO = 0.02;

/** Days after which a refresh weighs half as much. */
const HALF_LIFE_DAYS = 14;

/** What is known of when the dataset refreshes. */
export interface RefreshProfile {
  /** Share of the refreshes in each bin of the day; sums to 1. Uniform before any is seen. */
  shares: number[];
  /** Refreshes expected on each weekday of the day window (0 = Sunday … 6 = Saturday). */
  perWeekday: number[];
  /** Refreshes the profile was learned from. */
  observations: number;
}

/** The weekday (0 = Sunday) of the day window holding `at`; day windows of any length count from the epoch, a Thursday. */
export function weekdayOf(at: number, dayMs: number): number {
  return (((Math.floor(at / dayMs) + 4) % 7) + 7) % 7;
}

/** Refreshes seen before the profile is trusted to say when the day's refresh comes: about a week's. */
const KNOWN_AFTER = 5;

/** Whether enough refreshes were seen to hold tokens back for the one expected later today. */
export function refreshTimesKnown(profile: RefreshProfile): boolean {
  return profile.observations >= KNOWN_AFTER;
}

/** Nothing seen yet: one refresh a day, at any time. */
export function uniformProfile(): RefreshProfile {
  return {
    shares: Array(PROFILE_BINS).fill(1 / PROFILE_BINS),
    perWeekday: Array(7).fill(1),
    observations: 0,
  };
}

/** The profile learned from refresh instants (epoch ms, any order) as seen at `nowMs`. */
export function learnProfile(refreshes: readonly number[], nowMs: number, dayMs: number): RefreshProfile {
  const seen = refreshes.filter((at) => at <= nowMs);
  if (seen.length === 0) return uniformProfile();
  const weight = (at: number) => 0.5 ** ((nowMs - at) / dayMs / HALF_LIFE_DAYS);
  // A sliver of a pseudo-observation spread evenly keeps every bin above zero; the gate's own floor
  // (GATE_FLOOR_SHARE), not this, keeps the rest of the day watched.
  const bins: number[] = Array(PROFILE_BINS).fill(PSEUDO / PROFILE_BINS);
  const byWeekday: number[] = Array(7).fill(0);
  let total = PSEUDO;
  for (const at of seen) {
    const w = weight(at);
    const bin = Math.min(PROFILE_BINS - 1, Math.floor(((at % dayMs) / dayMs) * PROFILE_BINS));
    bins[bin] = (bins[bin] ?? 0) + w;
    const day = weekdayOf(at, dayMs);
    if (at < nowMs - (nowMs % dayMs)) byWeekday[day] = (byWeekday[day] ?? 0) + w;
    total += w;
  }
  return {
    shares: bins.map((b) => b / total),
    perWeekday: perWeekday(byWeekday, Math.min(...seen), nowMs, dayMs, weight),
    observations: seen.length,
  };
}

/**
 * Weighted refreshes per weekday over the weighted number of such days watched. A weekday not yet
 * watched takes the mean over all days watched.
 */
function perWeekday(
  counts: readonly number[],
  firstMs: number,
  nowMs: number,
  dayMs: number,
  weight: (at: number) => number,
): number[] {
  const days: number[] = Array(7).fill(0);
  // Whole days only: today is not over, so its count says nothing yet of its weekday.
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

/**
 * Refreshes still expected in the day window holding `nowMs`, after `nowMs`, given what was seen today
 * (`seenToday`). Before the day's first refresh this is a conditional chance: on a day that publishes
 * once, a refresh not seen by 20:00 is not unlikely but overdue (a late publication), so the share of
 * the profile still ahead is weighed against the share already passed without one. After it, only the
 * day's further refreshes (corrections) remain, by the share of the profile still ahead.
 */
export function refreshesLater(profile: RefreshProfile, nowMs: number, dayMs: number, seenToday = 0): number {
  const position = ((nowMs % dayMs) / dayMs) * PROFILE_BINS;
  const bin = Math.floor(position);
  let ahead = (profile.shares[bin] ?? 0) * (bin + 1 - position);
  for (let b = bin + 1; b < PROFILE_BINS; b++) ahead += profile.shares[b] ?? 0;
  const expected = profile.perWeekday[weekdayOf(nowMs, dayMs)] ?? 1;
  if (seenToday > 0) return Math.min(expected * ahead, Math.max(0, expected - seenToday));
  // The first refresh of the day: it comes today with chance `first`, and not before now.
  const first = Math.min(1, expected);
  const stillToCome = first * ahead;
  const firstLater = stillToCome === 0 ? 0 : stillToCome / (1 - first + stillToCome);
  return firstLater + (expected - first) * ahead;
}

/** Refreshes seen in the day window holding `nowMs`, up to it. */
export function seenToday(refreshes: readonly number[], nowMs: number, dayMs: number): number {
  const start = Math.floor(nowMs / dayMs) * dayMs;
  return refreshes.filter((at) => at >= start && at <= nowMs).length;
}

/**
 * How long until the refresh still expected today most likely comes: the middle of the profile's
 * share still ahead today; a whole day when none is expected today.
 */
export function untilRefreshMs(profile: RefreshProfile, nowMs: number, dayMs: number, later: number): number {
  if (later < 0.5) return dayMs;
  const position = ((nowMs % dayMs) / dayMs) * PROFILE_BINS;
  const bin = Math.floor(position);
  const firstPart = (profile.shares[bin] ?? 0) * (bin + 1 - position);
  let ahead = firstPart;
  for (let b = bin + 1; b < PROFILE_BINS; b++) ahead += profile.shares[b] ?? 0;
  let passed = firstPart;
  let b = bin + 1;
  while (b < PROFILE_BINS && passed < ahead / 2) passed += profile.shares[b++] ?? 0;
  return Math.max(0, (b / PROFILE_BINS) * dayMs - (nowMs % dayMs));
}

/** A `last_updated` with a time of day (not a date alone). */
const PRECISE = /T\d{2}:\d{2}/;

/**
 * When a refresh happened, as far as the check that saw it can tell: its `last_updated` when precise and
 * within (previous check, this check]; the check's own time otherwise. The first version ever seen keeps
 * its `last_updated` (capped at now), since no check watched it arrive.
 */
export function refreshInstant(
  lastUpdated: string,
  seenAtMs: number,
  previousCheckMs: number | null,
  first = false,
): number {
  const stated = Date.parse(lastUpdated);
  if (first) return Math.min(stated, seenAtMs);
  const vouched =
    PRECISE.test(lastUpdated) && stated <= seenAtMs && (previousCheckMs === null || stated > previousCheckMs);
  return vouched ? stated : seenAtMs;
}
