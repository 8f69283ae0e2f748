import { round2, round4 } from '../positions/round.js';
import { holderKeyOf } from './holder-diff.js';
import { DISCLOSURE_THRESHOLD, type IssuerBook } from './issuer-book.js';
import { openingValue, upChance } from './register-shape.js';
import { addTenths, discloseToday, spell, type World } from './world.js';

// Which positions change is weighted by their issuer's activity, so crowded names, whose holders
// re-disclose often, change far more often than the rest (register-shape.ts has the figures).

/**
 * Shares of the random changes that open and close a position; the rest move one. A third of the
 * closes are not reopened, so opens (0.1) balance them (0.3 / 3) and the world keeps its size.
 */
const OPEN_SHARE = 0.1;
const CLOSE_SHARE = 0.3;

/** How strongly an issuer is pulled back to its usual number of holders (see `opensTo`, `closeShare`). */
const PULL = 4;

/** Holders already moved this step, as `issuerId \0 holderKey`. */
type Touched = Set<string>;

interface Candidate {
  book: IssuerBook;
  key: string;
}

const mark = (book: IssuerBook, key: string): string => `${book.issuer.svc_issuer_id}\u0000${key}`;

/** Applies one simulated day to the world's registers (the date must already be advanced). */
export function applyStep(world: World): void {
  const touched: Touched = new Set();
  removeFading(world, touched);
  runReopens(world, touched);
  flap(world, touched);
  const active = [...world.books.values()].reduce((sum, book) => sum + book.current().size, 0);
  const count = Math.max(1, Math.round(world.changeRate * active));
  for (let i = 0; i < count; i++) randomChange(world, touched);
  if (world.rng.chance(0.35)) redisclose(world, touched);
}

/** A position under the threshold stays listed for one step, then leaves. */
function removeFading(world: World, touched: Touched): void {
  for (const book of world.books.values()) {
    for (const [key, row] of book.current()) {
      if (row.value >= DISCLOSURE_THRESHOLD) continue;
      book.removeKey(key);
      touched.add(mark(book, key));
    }
  }
}

function runReopens(world: World, touched: Touched): void {
  const due = world.reopens.filter((reopen) => reopen.at <= world.stepIndex);
  world.reopens = world.reopens.filter((reopen) => reopen.at > world.stepIndex);
  for (const reopen of due) {
    const book = world.books.get(reopen.issuerId);
    const key = holderKeyOf(reopen.holder);
    // A register that filled up meanwhile has no room left for the holder.
    if (!book?.hasRoom() || book.current().has(key) || touched.has(mark(book, key))) continue;
    discloseToday(world, book, spell(world, reopen.holder), reopen.value);
    touched.add(mark(book, key));
  }
}

/** The flapper hovers around 0.5%: listed at 0.5x, then under the threshold, then back. */
function flap(world: World, touched: Touched): void {
  const { flapper, rng } = world;
  const book = flapper && world.books.get(flapper.issuerId);
  if (!flapper || !book) return;
  const key = holderKeyOf(flapper.holder);
  if (touched.has(mark(book, key)) || !rng.chance(0.45)) return;
  touched.add(mark(book, key));
  if (!book.current().has(key)) {
    discloseToday(world, book, flapper.holder, rng.int(50, 56) / 100);
  } else if (rng.chance(0.7)) {
    discloseToday(world, book, flapper.holder, rng.int(44, 49) / 100);
  } else {
    book.history.push({ date: world.date, value: rng.int(44, 49) / 100, position_holder: flapper.holder });
    book.removeKey(key);
  }
}

function candidates(world: World, touched: Touched): Candidate[] {
  const flapKey = world.flapper && holderKeyOf(world.flapper.holder);
  const found: Candidate[] = [];
  for (const book of world.books.values()) {
    const flapBook = book.issuer.svc_issuer_id === world.flapper?.issuerId;
    for (const key of book.current().keys()) {
      if (touched.has(mark(book, key)) || (flapBook && key === flapKey)) continue;
      found.push({ book, key });
    }
  }
  return found;
}

/** A listed position, chosen in proportion to its issuer's activity. */
function pickActive(world: World, found: readonly Candidate[]): Candidate | undefined {
  return world.rng.weighted(found, (candidate) => candidate.book.habits.activity);
}

/** A new position, or one listed position that closes or moves. */
function randomChange(world: World, touched: Touched): void {
  const roll = world.rng.next();
  const found = candidates(world, touched);
  if ((roll < OPEN_SHARE || found.length === 0) && open(world, touched)) return;
  const target = pickActive(world, found);
  if (!target) return;
  touched.add(mark(target.book, target.key));
  if (roll < OPEN_SHARE + closeShare(target.book)) close(world, target);
  else move(world, target);
}

/**
 * Closes are rarer on an issuer listing fewer holders than usual, and more common on one listing
 * more. An issuer with no usual count (one added by hand) gets the plain share.
 */
function closeShare(book: IssuerBook): number {
  const { usual } = book.habits;
  const ratio = usual > 0 ? book.current().size / usual : 1;
  return CLOSE_SHARE * Math.min(1.5, Math.max(0.5, 1 + PULL * (ratio - 1)));
}

/** A new holder crosses 0.5% on an issuer with room, chosen as `opensTo` weighs them. */
function open(world: World, touched: Touched): boolean {
  const { rng } = world;
  const book = rng.weighted([...world.books.values()], opensTo);
  if (!book) return false;
  const listed = book.current();
  // The flapper comes and goes on its own schedule; a random open would double it.
  const flapKey =
    world.flapper?.issuerId === book.issuer.svc_issuer_id ? holderKeyOf(world.flapper.holder) : '';
  const names = world.names.filter((name) => {
    const key = holderKeyOf(name);
    return key !== flapKey && !listed.has(key) && !touched.has(mark(book, key));
  });
  const name = rng.pick(names);
  if (!name) return false;
  touched.add(mark(book, holderKeyOf(name)));
  discloseToday(world, book, spell(world, name), openingValue(rng));
  return true;
}

/**
 * How likely an open lands on an issuer. Closes strike in proportion to activity × listed holders;
 * opens in proportion to activity × usual holders, more for each holder short of that, meet them at
 * the usual count, so each issuer keeps its shape (a crowded name stays crowded) while it changes.
 */
function opensTo(book: IssuerBook): number {
  if (!book.hasRoom()) return 0;
  const { activity, usual } = book.habits;
  return activity * Math.max(0, usual + PULL * (usual - book.current().size));
}

/** The holder falls under 0.5%: usually a listed sub-threshold row first, sometimes straight off. */
function close(world: World, { book, key }: Candidate): void {
  const { rng } = world;
  const row = book.current().get(key);
  if (!row) return;
  const value = rng.int(30, 49) / 100;
  const listedFirst = rng.chance(0.75);
  if (listedFirst) discloseToday(world, book, spell(world, row.position_holder), value);
  else {
    book.history.push({ date: world.date, value, position_holder: spell(world, row.position_holder) });
    book.removeKey(key);
  }
  if (rng.chance(2 / 3)) {
    world.reopens.push({
      at: world.stepIndex + (listedFirst ? 1 : 0) + rng.int(2, 8),
      issuerId: book.issuer.svc_issuer_id,
      holder: row.position_holder,
      value: rng.int(50, 70) / 100,
    });
  }
}

/** The holder's position moves up or down, staying at or over the threshold. */
function move(world: World, { book, key }: Candidate): void {
  const { rng } = world;
  const row = book.current().get(key);
  if (!row) return;
  const up = rng.chance(upChance(row.value));
  // Half the moves add tenths one by one (float noise), half print a clean 2-decimal value.
  const next = rng.chance(0.5)
    ? addTenths(row.value, (up ? 1 : -1) * rng.int(1, 4))
    : round2(row.value + (up ? 1 : -1) * (rng.int(1, 30) / 100));
  const value = next >= DISCLOSURE_THRESHOLD ? next : addTenths(row.value, rng.int(1, 4));
  const holder = spell(world, row.position_holder);
  discloseToday(world, book, holder, value, holder !== row.position_holder && rng.chance(0.3));
}

/** A fresh disclosure with the same value (and maybe another spelling): no change for anyone. */
function redisclose(world: World, touched: Touched): void {
  const target = pickActive(world, candidates(world, touched));
  const row = target?.book.current().get(target.key);
  if (!target || !row) return;
  touched.add(mark(target.book, target.key));
  const noisy = addTenths(addTenths(row.value, 1), -1);
  const value = round4(noisy) === round4(row.value) ? noisy : row.value;
  discloseToday(world, target.book, spell(world, row.position_holder), value);
}
