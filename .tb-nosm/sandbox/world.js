import { holderKeyOf } from "./holder-diff.js";
import { SHAW_SPELLINGS } from "./names.js";
const SHAW_KEY = holderKeyOf(SHAW_SPELLINGS[0] ?? "");
function spell(world, name) {
  if (holderKeyOf(name) !== SHAW_KEY) return name;
  return world.rng.pick(SHAW_SPELLINGS) ?? name;
}
function discloseToday(world, book, holder, value, keepOtherSpellings = false) {
  const row = { date: world.date, value, position_holder: holder };
  book.disclose(row, world.rng.int(0, book.active.length), keepOtherSpellings);
}
function addTenths(value, steps) {
  let result = value;
  const tenth = steps < 0 ? -0.1 : 0.1;
  for (let i = 0; i < Math.abs(steps); i++) result += tenth;
  return result;
}
export {
  addTenths,
  discloseToday,
  spell
};
