import { holderKeyOf } from './holder-diff.js';
import type { IssuerBook } from './issuer-book.js';
import { SHAW_SPELLINGS } from './names.js';
import type { Random } from './prng.js';

/** A reopen planned after a close: most closed positions come back a few days later near 0.5%. */
export interface PlannedReopen {
  at: number;
  issuerId: string;
  holder: string;
  value: number;
}

/** The holder whose position keeps crossing 0.5% on one issuer. */
export interface Flapper {
  issuerId: string;
  holder: string;
}

/** The mutable state behind a scenario. */
export interface World {
  rng: Random;
  books: Map<string, IssuerBook>;
  /** Today's simulated date; each step moves it one weekday. */
  date: string;
  stepIndex: number;
  changeRate: number;
  reopens: PlannedReopen[];
  flapper: Flapper | undefined;
  /** Names new positions are opened under. */
  names: readonly string[];
}

const SHAW_KEY = holderKeyOf(SHAW_SPELLINGS[0] ?? '');

/** The name a holder discloses under today: the multi-spelling fund picks one of its spellings. */
export function spell(world: World, name: string): string {
  if (holderKeyOf(name) !== SHAW_KEY) return name;
  return world.rng.pick(SHAW_SPELLINGS) ?? name;
}

/** Adds a disclosure dated today at a random place in the active list. */
export function discloseToday(
  world: World,
  book: IssuerBook,
  holder: string,
  value: number,
  keepOtherSpellings = false,
): void {
  const row = { date: world.date, value, position_holder: holder };
  book.disclose(row, world.rng.int(0, book.active.length), keepOtherSpellings);
}

/** Adds `steps` tenths one at a time, keeping the float noise a register built that way shows. */
export function addTenths(value: number, steps: number): number {
  let result = value;
  const tenth = steps < 0 ? -0.1 : 0.1;
  for (let i = 0; i < Math.abs(steps); i++) result += tenth;
  return result;
}
