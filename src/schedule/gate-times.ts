import { PROFILE_BINS, type RefreshProfile } from './refresh-profile.js';

// Where in the day the gate checks go. A refresh is found at the first check after it, so a check
// placed where refreshes are likely finds them sooner than the same number spread evenly. With refresh
// times of density g, checks of density proportional to sqrt(g) minimise the mean wait from a refresh
// to its check (the same square-root law as for polls); a share of the checks is spread evenly, so no
// part of the day goes unwatched for long.

/** Share of the day's checks spread evenly over the day, whatever the profile says. */
export const GATE_FLOOR_SHARE = 0.3;

/**
 * The offsets in the day window (ms, multiples of `tickMs`) of `checks` gate checks. Every tick is a
 * check when there are at least as many checks as ticks; otherwise at most one a tick.
 */
export function placeChecks(
  profile: RefreshProfile,
  checks: number,
  tickMs: number,
  dayMs: number,
): number[] {
  const slots = Math.max(1, Math.floor(dayMs / tickMs));
  if (checks >= slots) return Array.from({ length: slots }, (_, i) => i * tickMs);
  if (checks <= 0) return [];
  const roots = profile.shares.map((share) => Math.sqrt(Math.max(0, share)));
  const rootSum = roots.reduce((s, r) => s + r, 0) || 1;
  const density = roots.map((r) => (1 - GATE_FLOOR_SHARE) * (r / rootSum) + GATE_FLOOR_SHARE / PROFILE_BINS);
  const taken = new Set<number>();
  const offsets: number[] = [];
  let bin = 0;
  let before = 0;
  for (let k = 0; k < checks; k++) {
    const target = (k + 0.5) / checks;
    while (bin < PROFILE_BINS - 1 && before + (density[bin] ?? 0) < target) before += density[bin++] ?? 0;
    const within = (target - before) / (density[bin] || 1);
    const at = ((bin + Math.min(1, Math.max(0, within))) / PROFILE_BINS) * dayMs;
    const slot = freeSlot(taken, Math.min(slots - 1, Math.floor(at / tickMs)), slots);
    if (slot === undefined) break;
    taken.add(slot);
    offsets.push(slot * tickMs);
  }
  return offsets.sort((a, b) => a - b);
}

/** The free slot nearest `want`, later ones first on a tie; undefined when all are taken. */
function freeSlot(taken: ReadonlySet<number>, want: number, slots: number): number | undefined {
  for (let d = 0; d < slots; d++) {
    if (want + d < slots && !taken.has(want + d)) return want + d;
    if (want - d >= 0 && !taken.has(want - d)) return want - d;
  }
  return undefined;
}

/** Whether a planned check falls after the last check and at or before `nowMs` (always, with none yet). */
export function checkDue(
  offsets: readonly number[],
  lastCheckMs: number | null,
  nowMs: number,
  dayMs: number,
): boolean {
  if (lastCheckMs === null || nowMs - lastCheckMs >= dayMs) return true;
  for (let day = Math.floor(lastCheckMs / dayMs); day <= Math.floor(nowMs / dayMs); day++) {
    for (const offset of offsets) {
      const at = day * dayMs + offset;
      if (at > lastCheckMs && at <= nowMs) return true;
    }
  }
  return false;
}

/** Planned checks after `nowMs` and before the day window's end. */
export function checksLeftToday(offsets: readonly number[], nowMs: number, dayMs: number): number {
  const into = nowMs % dayMs;
  return offsets.filter((offset) => offset > into).length;
}
