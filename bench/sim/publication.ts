import type { Random } from '../../src/sandbox/prng.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** One refresh of the simulated register: when, and what share of a business day's changes it carries. */
export interface Publication {
  at: number;
  /** 1 for the day's main publication; a later correction carries a small share. */
  weight: number;
}

/**
 * Euronext Amsterdam holidays in the benchmark's half-year (no publication): Good Friday, Easter
 * Monday, King's Day, Ascension Day, Whit Monday.
 */
const HOLIDAYS = new Set(['2026-04-03', '2026-04-06', '2026-04-27', '2026-05-14', '2026-05-25']);

/** Local publication time of the AFM-like register: 15:30 Amsterdam time. */
const LOCAL_MINUTES = 15 * 60 + 30;
/** Spread of an ordinary publication around its time (normal, minutes). */
const JITTER_MINUTES = 6;
/** Share of business days published late, and how late (uniform, minutes). */
const LATE_SHARE = 0.08;
const LATE_MINUTES: [number, number] = [45, 420];
/** Share of business days with a correction after the main publication, its delay and weight. */
const CORRECTION_SHARE = 0.04;
const CORRECTION_HOURS: [number, number] = [1, 6];
const CORRECTION_WEIGHT = 0.1;

const amsterdamHour = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Amsterdam',
  hour: 'numeric',
  hourCycle: 'h23',
});

/** Amsterdam's offset from UTC on the day starting at `dayStart` (1 h in winter, 2 h in summer), ms. */
function amsterdamOffsetMs(dayStart: number): number {
  const noonUtc = dayStart + 12 * 3_600_000;
  return (Number(amsterdamHour.format(noonUtc)) - 12) * 3_600_000;
}

function isBusinessDay(dayStart: number): boolean {
  const weekday = new Date(dayStart).getUTCDay();
  const date = new Date(dayStart).toISOString().slice(0, 10);
  return weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(date);
}

function normal(rng: Random): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * The refreshes of a register that publishes at about 15:30 local time on business days (most
 * within a few minutes of it, some hours late, the odd correction later the same evening), over
 * `days` days from the UTC midnight `start`. Weekends and exchange holidays have none.
 */
export function clusteredPublications(rng: Random, start: number, days: number): Publication[] {
  const out: Publication[] = [];
  for (let day = 0; day < days; day++) {
    const dayStart = start + day * DAY_MS;
    if (!isBusinessDay(dayStart)) continue;
    let minutes = LOCAL_MINUTES + JITTER_MINUTES * normal(rng);
    if (rng.chance(LATE_SHARE)) minutes += LATE_MINUTES[0] + rng.next() * (LATE_MINUTES[1] - LATE_MINUTES[0]);
    const at = Math.round(dayStart + minutes * MINUTE_MS - amsterdamOffsetMs(dayStart));
    out.push({ at, weight: 1 });
    if (rng.chance(CORRECTION_SHARE)) {
      const hours = CORRECTION_HOURS[0] + rng.next() * (CORRECTION_HOURS[1] - CORRECTION_HOURS[0]);
      out.push({ at: at + Math.round(hours * 3_600_000), weight: CORRECTION_WEIGHT });
    }
  }
  return out;
}

/** The same days with one publication at a uniformly random time of day: no publication hour. */
export function uniformPublications(rng: Random, start: number, days: number): Publication[] {
  const out: Publication[] = [];
  for (let day = 0; day < days; day++) {
    const dayStart = start + day * DAY_MS;
    if (isBusinessDay(dayStart)) out.push({ at: dayStart + Math.floor(rng.next() * DAY_MS), weight: 1 });
  }
  return out;
}
