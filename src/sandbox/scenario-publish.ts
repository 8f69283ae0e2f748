import { round2, round4 } from '../positions/round.js';
import { DAY_MS } from '../time/units.js';
import { addWeekdays } from './dates.js';
import { holderKeyOf, latestByKey } from './holder-diff.js';
import { DISCLOSURE_THRESHOLD, type IssuerBook } from './issuer-book.js';
import { Random } from './prng.js';
import { type PublicationClock, parseTimeOfDay } from './publication-clock.js';
import { issuerChangeRate, openingValue } from './register-shape.js';
import type { PublicationOptions } from './scenario-types.js';
import { discloseToday, type World } from './world.js';

// A whole register on a publication schedule (issue 16): each issuer changes at its own rate, drawn
// from the log-normal fitted to a real register (register-shape.ts), and the changes appear at once
// when the dataset is published, one business day of them per publication.

/** Shares of the changes that open a position and close one; the rest move one. */
const OPEN_SHARE = 0.2;
const CLOSE_SHARE = 0.2;

/** Keeps the publication stream apart from the world's, so publishing never alters the world a seed gives. */
const STREAM_SALT = 0x5eed_0016;

/** Defaults of {@link PublicationOptions}: a real day, 15:30 Amsterdam time, about a year of history. */
export const PUBLICATION_DEFAULTS = {
  dayMs: DAY_MS,
  at: '15:30',
  timeZone: 'Europe/Amsterdam',
  warmUpDays: 250,
};

/** What a scenario on a publication schedule keeps. */
export interface Publishing {
  clock: PublicationClock;
  /** Changes a business day, by issuer id. */
  rates: ReadonlyMap<string, number>;
  rng: Random;
  /** Publications still to make (Infinity: no end). */
  left: number;
}

/**
 * The schedule and the per-issuer rates of a world. The busiest rates go to the issuers listing the
 * most holders (rank-coupled, with noise), as the crowded names of a real register are the busiest.
 */
export function createPublishing(world: World, seed: number, options: PublicationOptions): Publishing {
  const localMinutes = parseTimeOfDay(options.at ?? PUBLICATION_DEFAULTS.at);
  if (localMinutes === undefined) throw new RangeError(`publications.at: "${options.at}" is not HH:MM`);
  const dayMs = options.dayMs ?? PUBLICATION_DEFAULTS.dayMs;
  if (!(dayMs > 0)) throw new RangeError(`publications.dayMs: ${dayMs} is not a positive length`);
  const rng = new Random(seed ^ STREAM_SALT);
  const byHolders = [...world.books.values()]
    .map((book) => ({ id: book.issuer.svc_issuer_id, key: book.current().size + 3 * rng.next() }))
    .sort((a, b) => b.key - a.key);
  const rates = byHolders.map(() => issuerChangeRate(rng)).sort((a, b) => b - a);
  return {
    clock: { dayMs, localMinutes, timeZone: options.timeZone ?? PUBLICATION_DEFAULTS.timeZone },
    rates: new Map(byHolders.map((entry, i) => [entry.id, rates[i] ?? 0])),
    rng,
    left: options.count ?? Number.POSITIVE_INFINITY,
  };
}

/**
 * `days` business days of changes before the register is served, dated as they happened, so that each
 * issuer's disclosure dates and history already reflect its rate (what a watcher estimates rates from).
 */
export function warmUp(world: World, publishing: Publishing, days: number): void {
  for (let d = 0; d < days; d++) {
    world.date = addWeekdays(world.date, 1);
    for (const book of pickChanged(world, publishing)) applyChange(world, publishing, book);
  }
}

/** The issuers one publication changes: each with chance 1 - e^-rate (its rate over one business day). */
export function pickChanged(world: World, publishing: Publishing): IssuerBook[] {
  return [...world.books.values()].filter((book) => {
    const rate = publishing.rates.get(book.issuer.svc_issuer_id) ?? 0;
    return publishing.rng.next() < 1 - Math.exp(-rate);
  });
}

/**
 * One disclosure dated today that a diff shows: a new holder (always on an issuer listing none), a
 * holder falling under 0.5% and leaving the list, or a move of 0.01 to 0.3 points.
 */
export function applyChange(world: World, publishing: Publishing, book: IssuerBook): void {
  const { rng } = publishing;
  const current = [...latestByKey(book.active).values()];
  const row = rng.pick(current);
  const roll = rng.next();
  if (!row || (roll < OPEN_SHARE && book.hasRoom())) {
    open(world, publishing, book);
  } else if (roll < OPEN_SHARE + CLOSE_SHARE) {
    const value = round2(0.3 + rng.next() * 0.19);
    book.history.push({ date: world.date, value, position_holder: row.position_holder });
    book.removeKey(holderKeyOf(row.position_holder));
  } else {
    const step = Math.max(0.01, round2(rng.next() * 0.3));
    const down = round2(row.value - step);
    const value = rng.chance(0.5) && down >= DISCLOSURE_THRESHOLD ? down : round2(row.value + step);
    // A value that rounds to the listed one would be a re-disclosure, not a change.
    discloseToday(
      world,
      book,
      row.position_holder,
      round4(value) === round4(row.value) ? value + 0.01 : value,
    );
  }
}

function open(world: World, publishing: Publishing, book: IssuerBook): void {
  const listed = book.current();
  const name = publishing.rng.pick(world.names.filter((n) => !listed.has(holderKeyOf(n))));
  if (name !== undefined) discloseToday(world, book, name, openingValue(publishing.rng));
}
