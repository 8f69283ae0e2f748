import { round2, round4 } from "../positions/round.js";
import { DAY_MS } from "../time/units.js";
import { addWeekdays } from "./dates.js";
import { holderKeyOf, latestByKey } from "./holder-diff.js";
import { DISCLOSURE_THRESHOLD } from "./issuer-book.js";
import { Random } from "./prng.js";
import { parseTimeOfDay } from "./publication-clock.js";
import { issuerChangeRate, openingValue } from "./register-shape.js";
import { discloseToday } from "./world.js";
const OPEN_SHARE = 0.2;
const CLOSE_SHARE = 0.2;
const STREAM_SALT = 1592590358;
const PUBLICATION_DEFAULTS = {
  dayMs: DAY_MS,
  at: "15:30",
  timeZone: "Europe/Amsterdam",
  warmUpDays: 250
};
function createPublishing(world, seed, options) {
  const localMinutes = parseTimeOfDay(options.at ?? PUBLICATION_DEFAULTS.at);
  if (localMinutes === void 0) throw new RangeError(`publications.at: "${options.at}" is not HH:MM`);
  const dayMs = options.dayMs ?? PUBLICATION_DEFAULTS.dayMs;
  if (!(dayMs > 0)) throw new RangeError(`publications.dayMs: ${dayMs} is not a positive length`);
  const rng = new Random(seed ^ STREAM_SALT);
  const byHolders = [...world.books.values()].map((book) => ({ id: book.issuer.svc_issuer_id, key: book.current().size + 3 * rng.next() })).sort((a, b) => b.key - a.key);
  const rates = byHolders.map(() => issuerChangeRate(rng)).sort((a, b) => b - a);
  return {
    clock: { dayMs, localMinutes, timeZone: options.timeZone ?? PUBLICATION_DEFAULTS.timeZone },
    rates: new Map(byHolders.map((entry, i) => [entry.id, rates[i] ?? 0])),
    rng,
    left: options.count ?? Number.POSITIVE_INFINITY
  };
}
function warmUp(world, publishing, days) {
  for (let d = 0; d < days; d++) {
    world.date = addWeekdays(world.date, 1);
    for (const book of pickChanged(world, publishing)) applyChange(world, publishing, book);
  }
}
function pickChanged(world, publishing) {
  return [...world.books.values()].filter((book) => {
    const rate = publishing.rates.get(book.issuer.svc_issuer_id) ?? 0;
    return publishing.rng.next() < 1 - Math.exp(-rate);
  });
}
function applyChange(world, publishing, book) {
  const { rng } = publishing;
  const current = [...latestByKey(book.active).values()];
  const row = rng.pick(current);
  const roll = rng.next();
  if (!row || roll < OPEN_SHARE && book.hasRoom()) {
    open(world, publishing, book);
  } else if (roll < OPEN_SHARE + CLOSE_SHARE) {
    const value = round2(0.3 + rng.next() * 0.19);
    book.history.push({ date: world.date, value, position_holder: row.position_holder });
    book.removeKey(holderKeyOf(row.position_holder));
  } else {
    const step = Math.max(0.01, round2(rng.next() * 0.3));
    const down = round2(row.value - step);
    const value = rng.chance(0.5) && down >= DISCLOSURE_THRESHOLD ? down : round2(row.value + step);
    discloseToday(
      world,
      book,
      row.position_holder,
      round4(value) === round4(row.value) ? value + 0.01 : value
    );
  }
}
function open(world, publishing, book) {
  const listed = book.current();
  const name = publishing.rng.pick(world.names.filter((n) => !listed.has(holderKeyOf(n))));
  if (name !== void 0) discloseToday(world, book, name, openingValue(publishing.rng));
}
export {
  PUBLICATION_DEFAULTS,
  applyChange,
  createPublishing,
  pickChanged,
  warmUp
};
