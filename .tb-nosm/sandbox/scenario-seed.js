import { round2, round4 } from "../positions/round.js";
import { addWeekdays } from "./dates.js";
import { IssuerBook } from "./issuer-book.js";
import { HOLDER_NAMES, ISSUER_NAMES, SHAW_SPELLINGS } from "./names.js";
import { Random } from "./prng.js";
import {
  CROWDED_ACTIVITY,
  CROWDED_MAX_HOLDERS,
  crowdedCount,
  crowdedHolders,
  DEFAULT_CHANGE_RATE,
  ORDINARY_MAX_HOLDERS,
  ordinaryHolders,
  positionValue
} from "./register-shape.js";
import { addTenths } from "./world.js";
const SHAW = SHAW_SPELLINGS[0] ?? "D. E. Shaw & Co., L.P.";
const DEFAULT_START = "2026-01-05";
const OPENING_NAMES = [...HOLDER_NAMES, SHAW];
function generateWorld(options) {
  const rng = new Random(options.seed);
  const issuerNames = rng.shuffle([...ISSUER_NAMES]);
  const count = options.issuers ?? 12;
  const start = options.start ?? DEFAULT_START;
  const roles = assignRoles(rng, count);
  const sizes = roles.map((role) => holderCount(rng, role, options.holdersPerIssuer));
  const showcase = roles.indexOf("crowded");
  const shawAt = shawIssuers(rng, roles, sizes, showcase);
  const books = /* @__PURE__ */ new Map();
  let flapper;
  roles.forEach((role, i) => {
    const base = issuerNames[i % issuerNames.length] ?? "Acme plc";
    const round = Math.floor(i / issuerNames.length);
    const issuer = {
      svc_issuer_id: `ISS-${String(i + 1).padStart(4, "0")}`,
      name: round ? `${base} ${round + 1}` : base
    };
    const size = sizes[i] ?? 0;
    const { book, main } = buildBook(rng, {
      issuer,
      role,
      size,
      start,
      withShaw: shawAt.has(i),
      showcase: i === showcase,
      cap: capOf(role, size, options.holdersPerIssuer)
    });
    if (role === "flap" && main) flapper = { issuerId: issuer.svc_issuer_id, holder: main };
    books.set(issuer.svc_issuer_id, book);
  });
  return {
    rng,
    books,
    date: start,
    stepIndex: 0,
    changeRate: options.changeRate ?? DEFAULT_CHANGE_RATE,
    reopens: [],
    flapper,
    names: OPENING_NAMES
  };
}
function assignRoles(rng, count) {
  const roles = Array.from({ length: count }, () => "ordinary");
  if (count < 4) return roles;
  const [empty, flap, ...crowded] = rng.sample([...roles.keys()], 2 + crowdedCount(count));
  if (empty !== void 0) roles[empty] = "empty";
  if (flap !== void 0) roles[flap] = "flap";
  for (const i of crowded) roles[i] = "crowded";
  return roles;
}
function holderCount(rng, role, range) {
  if (role === "empty") return 0;
  if (role === "crowded") return crowdedHolders(rng);
  if (role === "flap") return rng.int(1, 3);
  return range ? rng.int(range[0], range[1]) : ordinaryHolders(rng);
}
function capOf(role, size, range) {
  if (role === "empty") return 0;
  if (role === "crowded") return Math.max(CROWDED_MAX_HOLDERS, size);
  if (range) return Math.max(range[1], size);
  return Math.min(ORDINARY_MAX_HOLDERS, Math.max(size + 2, 3));
}
function shawIssuers(rng, roles, sizes, showcase) {
  const held = [...roles.keys()].filter((i) => roles[i] === "ordinary" && (sizes[i] ?? 0) > 0);
  const chosen = new Set(rng.sample(held, rng.int(1, 2)));
  if (showcase >= 0) chosen.add(showcase);
  return chosen;
}
function buildBook(rng, plan) {
  const { role, size, start } = plan;
  if (role === "empty") return { book: new IssuerBook(plan.issuer, [], [], 0), main: void 0 };
  const picked = rng.sample(HOLDER_NAMES, size + 2);
  const holders = picked.slice(0, size);
  if (plan.withShaw && size > 0) holders[size - 1] = SHAW;
  const history = [];
  const active = [];
  holders.forEach((name, i) => {
    const rows = pickHistory(rng, { name, role, showcase: plan.showcase, start, first: i === 0 });
    history.push(...rows);
    const last = rows.at(-1);
    if (last) active.push(last);
    const stale = rows.at(-2);
    if (name === SHAW && plan.showcase && stale) active.push(stale);
  });
  for (const name of picked.slice(size, size + rng.int(0, 2)))
    history.push(...closedHistory(rng, name, start));
  history.sort((a, b) => a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
  const habits = { activity: role === "crowded" ? CROWDED_ACTIVITY : 1, usual: size };
  const book = new IssuerBook(plan.issuer, history, rng.shuffle(active), plan.cap, habits);
  return { book, main: holders[0] };
}
function pickHistory(rng, plan) {
  if (plan.role === "flap" && plan.first) return flapHistory(rng, plan.name, plan.start);
  if (plan.name === SHAW) return shawHistory(rng, plan.start, plan.showcase);
  const rows = holderHistory(rng, plan.name, plan.start);
  const last = rows.at(-1);
  if (plan.showcase && plan.first && last) last.value = withNoise(last.value);
  return rows;
}
function datesBack(rng, start, count, gap) {
  const dates = [addWeekdays(start, -rng.int(0, 25))];
  while (dates.length < count) dates.unshift(addWeekdays(dates[0] ?? start, -rng.int(gap[0], gap[1])));
  return dates;
}
function holderHistory(rng, name, start) {
  const dates = datesBack(rng, start, rng.int(1, 4), [1, 15]);
  let value = positionValue(rng);
  return dates.map((date, i) => {
    if (i > 0) {
      const dipped = value < 0.5;
      const next = rng.chance(0.5) ? addTenths(value, rng.int(-3, 3)) : round2(value + rng.int(-30, 30) / 100);
      value = dipped || next < 0.5 ? round2(0.5 + rng.int(0, 20) / 100) : next;
      if (!dipped && i < dates.length - 1 && rng.chance(0.15)) value = rng.int(35, 49) / 100;
    }
    return { date, value, position_holder: name };
  });
}
function shawHistory(rng, start, all) {
  const spellings = all ? [...SHAW_SPELLINGS] : rng.sample(SHAW_SPELLINGS, 2);
  const dates = datesBack(rng, start, spellings.length, [3, 12]);
  let value = positionValue(rng);
  return dates.map((date, i) => {
    if (i > 0) value = addTenths(value, rng.int(1, 3));
    return { date, value, position_holder: spellings[i] ?? SHAW };
  });
}
function flapHistory(rng, name, start) {
  const dates = datesBack(rng, start, rng.int(3, 5), [1, 4]);
  return dates.map((date, i) => {
    const over = (dates.length - 1 - i) % 2 === 0;
    return { date, value: over ? rng.int(50, 56) / 100 : rng.int(44, 49) / 100, position_holder: name };
  });
}
function closedHistory(rng, name, start) {
  const dates = datesBack(rng, addWeekdays(start, -30), rng.int(2, 3), [2, 20]);
  return dates.map((date, i) => ({
    date,
    value: i === dates.length - 1 ? rng.int(30, 49) / 100 : round2(0.5 + rng.next() * 0.5),
    position_holder: name
  }));
}
function withNoise(value) {
  for (let steps = 1; steps <= 10; steps++) {
    const noisy = addTenths(value, steps);
    if (noisy !== round4(noisy)) return noisy;
  }
  return addTenths(value, 10);
}
export {
  DEFAULT_START,
  OPENING_NAMES,
  generateWorld
};
