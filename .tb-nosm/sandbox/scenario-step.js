import { round2, round4 } from "../positions/round.js";
import { holderKeyOf } from "./holder-diff.js";
import { DISCLOSURE_THRESHOLD } from "./issuer-book.js";
import { openingValue, upChance } from "./register-shape.js";
import { addTenths, discloseToday, spell } from "./world.js";
const OPEN_SHARE = 0.1;
const CLOSE_SHARE = 0.3;
const PULL = 4;
const mark = (book, key) => `${book.issuer.svc_issuer_id}\0${key}`;
function applyStep(world) {
  const touched = /* @__PURE__ */ new Set();
  removeFading(world, touched);
  runReopens(world, touched);
  flap(world, touched);
  const active = [...world.books.values()].reduce((sum, book) => sum + book.current().size, 0);
  const count = Math.max(1, Math.round(world.changeRate * active));
  for (let i = 0; i < count; i++) randomChange(world, touched);
  if (world.rng.chance(0.35)) redisclose(world, touched);
}
function removeFading(world, touched) {
  for (const book of world.books.values()) {
    for (const [key, row] of book.current()) {
      if (row.value >= DISCLOSURE_THRESHOLD) continue;
      book.removeKey(key);
      touched.add(mark(book, key));
    }
  }
}
function runReopens(world, touched) {
  const due = world.reopens.filter((reopen) => reopen.at <= world.stepIndex);
  world.reopens = world.reopens.filter((reopen) => reopen.at > world.stepIndex);
  for (const reopen of due) {
    const book = world.books.get(reopen.issuerId);
    const key = holderKeyOf(reopen.holder);
    if (!book?.hasRoom() || book.current().has(key) || touched.has(mark(book, key))) continue;
    discloseToday(world, book, spell(world, reopen.holder), reopen.value);
    touched.add(mark(book, key));
  }
}
function flap(world, touched) {
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
function candidates(world, touched) {
  const flapKey = world.flapper && holderKeyOf(world.flapper.holder);
  const found = [];
  for (const book of world.books.values()) {
    const flapBook = book.issuer.svc_issuer_id === world.flapper?.issuerId;
    for (const key of book.current().keys()) {
      if (touched.has(mark(book, key)) || flapBook && key === flapKey) continue;
      found.push({ book, key });
    }
  }
  return found;
}
function pickActive(world, found) {
  return world.rng.weighted(found, (candidate) => candidate.book.habits.activity);
}
function randomChange(world, touched) {
  const roll = world.rng.next();
  const found = candidates(world, touched);
  if ((roll < OPEN_SHARE || found.length === 0) && open(world, touched)) return;
  const target = pickActive(world, found);
  if (!target) return;
  touched.add(mark(target.book, target.key));
  if (roll < OPEN_SHARE + closeShare(target.book)) close(world, target);
  else move(world, target);
}
function closeShare(book) {
  const { usual } = book.habits;
  const ratio = usual > 0 ? book.current().size / usual : 1;
  return CLOSE_SHARE * Math.min(1.5, Math.max(0.5, 1 + PULL * (ratio - 1)));
}
function open(world, touched) {
  const { rng } = world;
  const book = rng.weighted([...world.books.values()], opensTo);
  if (!book) return false;
  const listed = book.current();
  const flapKey = world.flapper?.issuerId === book.issuer.svc_issuer_id ? holderKeyOf(world.flapper.holder) : "";
  const names = world.names.filter((name2) => {
    const key = holderKeyOf(name2);
    return key !== flapKey && !listed.has(key) && !touched.has(mark(book, key));
  });
  const name = rng.pick(names);
  if (!name) return false;
  touched.add(mark(book, holderKeyOf(name)));
  discloseToday(world, book, spell(world, name), openingValue(rng));
  return true;
}
function opensTo(book) {
  if (!book.hasRoom()) return 0;
  const { activity, usual } = book.habits;
  return activity * Math.max(0, usual + PULL * (usual - book.current().size));
}
function close(world, { book, key }) {
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
      value: rng.int(50, 70) / 100
    });
  }
}
function move(world, { book, key }) {
  const { rng } = world;
  const row = book.current().get(key);
  if (!row) return;
  const up = rng.chance(upChance(row.value));
  const next = rng.chance(0.5) ? addTenths(row.value, (up ? 1 : -1) * rng.int(1, 4)) : round2(row.value + (up ? 1 : -1) * (rng.int(1, 30) / 100));
  const value = next >= DISCLOSURE_THRESHOLD ? next : addTenths(row.value, rng.int(1, 4));
  const holder = spell(world, row.position_holder);
  discloseToday(world, book, holder, value, holder !== row.position_holder && rng.chance(0.3));
}
function redisclose(world, touched) {
  const target = pickActive(world, candidates(world, touched));
  const row = target?.book.current().get(target.key);
  if (!target || !row) return;
  touched.add(mark(target.book, target.key));
  const noisy = addTenths(addTenths(row.value, 1), -1);
  const value = round4(noisy) === round4(row.value) ? noisy : row.value;
  discloseToday(world, target.book, spell(world, row.position_holder), value);
}
export {
  applyStep
};
