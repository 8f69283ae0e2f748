import { holderKeyOf, round4 } from './holder-diff.js';
import { DISCLOSURE_THRESHOLD, type IssuerBook } from './issuer-book.js';
import { addTenths, discloseToday, round2, spell, type World } from './world.js';

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
    if (!book || book.current().has(key) || touched.has(mark(book, key))) continue;
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

function randomChange(world: World, touched: Touched): void {
  const roll = world.rng.next();
  const found = candidates(world, touched);
  if ((roll < 0.1 || found.length === 0) && open(world, touched, world.rng.pick(found)?.book)) return;
  const target = world.rng.pick(found);
  if (!target) return;
  touched.add(mark(target.book, target.key));
  if (roll < 0.4) close(world, target);
  else move(world, target);
}

/** A new holder crosses 0.5% on an issuer that has a register and room. */
function open(world: World, touched: Touched, preferred: IssuerBook | undefined): boolean {
  const { rng } = world;
  // Opens follow where positions are, as closes do, so big issuers stay big.
  const book = preferred && preferred.current().size < preferred.cap ? preferred : roomiest(world);
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
  discloseToday(world, book, spell(world, name), round2(0.5 + rng.next() ** 2 * 2));
  return true;
}

/** An issuer with a register, chosen in proportion to its room for more holders. */
function roomiest(world: World): IssuerBook | undefined {
  const books = [...world.books.values()].filter((book) => book.history.length > 0);
  const room = (book: IssuerBook): number => Math.max(0, book.cap - book.current().size);
  let left = world.rng.next() * books.reduce((sum, book) => sum + room(book), 0);
  for (const book of books) {
    left -= room(book);
    if (left < 0) return book;
  }
  return undefined;
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
  const up = rng.chance(0.5);
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
  const { rng } = world;
  const target = rng.pick(candidates(world, touched));
  const row = target?.book.current().get(target.key);
  if (!target || !row) return;
  touched.add(mark(target.book, target.key));
  const noisy = addTenths(addTenths(row.value, 1), -1);
  const value = round4(noisy) === round4(row.value) ? noisy : row.value;
  discloseToday(world, target.book, spell(world, row.position_holder), value);
}
