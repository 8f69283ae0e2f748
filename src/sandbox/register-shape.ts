import { round2 } from '../positions/round.js';
import type { Random } from './prng.js';

// The shape of a generated world, fitted to the FCA's public register of net short positions (the
// "short positions daily update" spreadsheet: every current disclosure of 0.5% or more, one row per
// holder and issuer). These are approximations of that register's usual shape in 2023-2024, from
// its published figures as we know them, not a download:
//
// - about 500-600 current disclosures against about 150-200 issuers, so about 3 holders an issuer;
//   most issuers show 1-4 holders (a third one, a fifth two), a tail thins out towards 7, and about a
//   dozen crowded names (some 6% of the issuers) show 8-15 holders each;
// - a position is usually small: about two thirds of them are under 1%, 85% under 1.5%, few over 3%;
// - so an issuer's disclosed total is mostly a few percent, well over 90% of them under 10%; the
//   crowded names reach 8-15%, the odd one a little more;
// - roughly 30-50 new disclosures a business day, about 6% of the current positions, and the crowded
//   names, whose holders are mostly systematic funds re-disclosing every 0.1 point, carry about half.
//
// The sandbox also tracks issuers with no current disclosure, as the upstream's issuer list does:
// about 5% of the ordinary issuers start so, and more fall to none for a while as their only holder
// closes.

/** Share of the issuers that are crowded names. */
export const CROWDED_SHARE = 0.06;

/** Most holders an ordinary issuer lists; more than this is a crowded name. */
export const ORDINARY_MAX_HOLDERS = 7;

/** Most holders a crowded name lists; opened positions stop here. */
export const CROWDED_MAX_HOLDERS = 15;

/** How much more often each position of a crowded name changes than one of an ordinary issuer. */
export const CROWDED_ACTIVITY = 4;

/** Share of the listed positions that change on a simulated business day. */
export const DEFAULT_CHANGE_RATE = 0.06;

/** Positions over this value move down more often than up, as registers seldom list large ones. */
const DRIFT_CEILING = 1.5;

/** Relative frequency of 0, 1, 2, … 7 current holders on an ordinary issuer. */
const ORDINARY_HOLDER_WEIGHTS: readonly number[] = [5, 32, 21, 14, 10, 8, 6, 4];

/** Relative frequency of 8, 9, … 15 current holders on a crowded name. */
const CROWDED_HOLDER_WEIGHTS: readonly number[] = [6, 5, 4, 3, 3, 2, 1, 1];

/** How many of `issuers` are crowded names: at least one in any world of 4 issuers or more. */
export function crowdedCount(issuers: number): number {
  return issuers < 4 ? 0 : Math.max(1, Math.round(issuers * CROWDED_SHARE));
}

/** Current holders of an ordinary issuer (0-7, mostly 1-4). */
export function ordinaryHolders(rng: Random): number {
  return weightedIndex(rng, ORDINARY_HOLDER_WEIGHTS);
}

/** Current holders of a crowded name (8-15, mostly at the low end). */
export function crowdedHolders(rng: Random): number {
  return ORDINARY_MAX_HOLDERS + 1 + weightedIndex(rng, CROWDED_HOLDER_WEIGHTS);
}

/** A current position's value: 0.5% up to 3%, mostly under 1.5%, with 2 decimals. */
export function positionValue(rng: Random): number {
  return round2(0.5 + 2.5 * rng.next() ** 4);
}

/** A newly opened position: just over the threshold as a rule, up to 2%. */
export function openingValue(rng: Random): number {
  return round2(0.5 + 1.5 * rng.next() ** 3);
}

/** The chance that a position's next move is up: even, except that large positions drift down. */
export function upChance(value: number): number {
  return value < DRIFT_CEILING ? 0.5 : 0.3;
}

function weightedIndex(rng: Random, weights: readonly number[]): number {
  const index = rng.weighted([...weights.keys()], (i) => weights[i] ?? 0);
  return index ?? 0;
}

// Per-issuer change rates of a whole register, for watchlists of thousands of issuers (issue 16).
// Fitted to two figures of the Dutch AFM register of net short positions (public, since 2012, so
// about 12 years or 3,000 business days): its busiest holder x issuer pair carries 498 notices, about
// 0.17 a business day, and a crowded issuer lists several such holders, so the busiest issuers change
// on about one business day in one or two; most issuers see "a few" notices a year, about 0.012 a
// business day. A log-normal with that median and the busiest issuer of a few thousand at the
// 99.9th percentile (ln(0.8 / 0.012) = 4.2 = 3.09 sigma) has sigma about 1.4; we take 1.5 for the
// heavier tail real registers show and cap a rate at 1.2 a business day. Its mean is 0.037, so a
// 5,000-issuer register changes about 185 issuers a business day and the busiest tenth of the
// issuers carries about 60% of the changes.

/** Median changes a business day of one issuer in a whole register. */
export const RATE_MEDIAN = 0.012;

/** Spread (sigma of the natural logarithm) of the issuers' change rates. */
export const RATE_SIGMA = 1.5;

/** Most changes a business day one issuer gets. */
export const RATE_CAP = 1.2;

/** One issuer's change rate (changes a business day), drawn from the fitted log-normal. */
export function issuerChangeRate(rng: Random): number {
  // Box-Muller: one standard normal from two uniforms (1 - u keeps the logarithm finite).
  const normal = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(RATE_CAP, RATE_MEDIAN * Math.exp(RATE_SIGMA * normal));
}
