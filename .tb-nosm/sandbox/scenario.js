import { addWeekdays, refreshTime } from "./dates.js";
import { diffActive, holderKeyOf } from "./holder-diff.js";
import { IssuerBook } from "./issuer-book.js";
import { nextPublication, previousPublication } from "./publication-clock.js";
import {
  applyChange,
  createPublishing,
  PUBLICATION_DEFAULTS,
  pickChanged,
  warmUp
} from "./scenario-publish.js";
import { DEFAULT_START, generateWorld } from "./scenario-seed.js";
import { applyStep } from "./scenario-step.js";
import { UnknownIssuerError } from "./unknown-issuer-error.js";
const ADDED_ISSUER_CAP = 12;
const byId = (a, b) => a.issuer.svc_issuer_id < b.issuer.svc_issuer_id ? -1 : a.issuer.svc_issuer_id > b.issuer.svc_issuer_id ? 1 : 0;
class Scenario {
  constructor(world, lastUpdated, publishing) {
    this.world = world;
    this.publishing = publishing;
    this.updated = lastUpdated;
  }
  world;
  publishing;
  updated;
  revision = 0;
  earlier = /* @__PURE__ */ new Map();
  published = [];
  /** The issuers, sorted by id. */
  issuers() {
    return this.books().map((book) => ({ ...book.issuer }));
  }
  /** One issuer, or undefined when unknown. */
  issuer(issuerId) {
    const book = this.world.books.get(issuerId);
    return book && { ...book.issuer };
  }
  /** When the dataset was last refreshed (ISO date-time), as `last_updated` reports it. */
  lastUpdated() {
    return this.updated;
  }
  /** Today's simulated date (`YYYY-MM-DD`); new disclosures carry it. */
  today() {
    return this.world.date;
  }
  /** The listed (`status=active`) rows of an issuer in service order; undefined for an unknown issuer. */
  active(issuerId) {
    return this.world.books.get(issuerId)?.copyActive();
  }
  /** Every disclosure row ever made for an issuer (`status=all`); undefined for an unknown issuer. */
  all(issuerId) {
    return this.world.books.get(issuerId)?.history.map((row) => ({ ...row }));
  }
  /**
   * An issuer's rows (`status` as in the positions operation) as they were just before the latest
   * change that touched it (a new disclosure, a holder leaving the list); undefined when this scenario
   * has not changed the issuer since it was created or loaded. A stale cache node serves these.
   */
  previous(issuerId, status) {
    const earlier = this.earlier.get(issuerId);
    const book = this.world.books.get(issuerId);
    if (!earlier || !book) return void 0;
    if (status === "active") return earlier.active.map((row) => ({ ...row }));
    return book.history.slice(0, earlier.historySize).map((row) => ({ ...row }));
  }
  /** Simulates one weekday and returns the changes as a diff of the active lists shows them. */
  step() {
    const { world } = this;
    const before = new Map(
      this.books().map((book) => [book.issuer.svc_issuer_id, this.dataOf(book)])
    );
    const rows = this.historySize();
    world.stepIndex++;
    world.date = addWeekdays(world.date, 1);
    applyStep(world);
    const changes = [];
    for (const book of this.books()) {
      const id = book.issuer.svc_issuer_id;
      const then = before.get(id) ?? { active: [], historySize: 0 };
      const changed = diffActive(id, then.active, book.active);
      if (changed.length > 0 || book.history.length !== then.historySize) this.earlier.set(id, then);
      changes.push(...changed);
      world.rng.shuffle(book.active);
    }
    if (changes.length > 0 || this.historySize() !== rows) this.refresh();
    return changes;
  }
  /**
   * Publishes one business day of changes now (`atMs`, epoch ms): each issuer changes with the chance its
   * rate gives, the disclosures are dated the next weekday, and `last_updated` moves to `atMs` even
   * when no issuer changed. Only for a scenario on a publication schedule.
   */
  publish(atMs) {
    const { world, publishing } = this;
    if (!publishing) throw new Error("this scenario has no publication schedule");
    publishing.left--;
    world.date = addWeekdays(world.date, 1);
    const changes = [];
    for (const book of pickChanged(world, publishing)) {
      const id = book.issuer.svc_issuer_id;
      const then = this.dataOf(book);
      applyChange(world, publishing, book);
      this.earlier.set(id, then);
      changes.push(...diffActive(id, then.active, book.active));
      world.rng.shuffle(book.active);
    }
    this.revision++;
    this.updated = new Date(atMs).toISOString();
    const publication = { at: atMs, lastUpdated: this.updated, date: world.date, changes };
    this.published.push(publication);
    return publication;
  }
  /** The next publication strictly after `afterMs`; undefined without a schedule or once none are left. */
  nextPublication(afterMs) {
    const { publishing } = this;
    if (!publishing || publishing.left <= 0) return void 0;
    return nextPublication(publishing.clock, afterMs, addWeekdays(this.world.date, 1));
  }
  /** The last scheduled publication at or before `atMs`; undefined without a schedule. */
  lastPublication(atMs) {
    return this.publishing && previousPublication(this.publishing.clock, atMs, this.world.date);
  }
  /** Every publication made so far, oldest first. */
  publications() {
    return this.published;
  }
  /** Each issuer's change rate (changes a business day) on a publication schedule; empty without one. */
  changeRates() {
    return this.publishing?.rates ?? /* @__PURE__ */ new Map();
  }
  /** Test helper: a new disclosure (dated today unless given) that becomes the holder's listed row. */
  disclose(issuerId, holder, value, date = this.world.date) {
    const book = this.book(issuerId);
    this.earlier.set(issuerId, this.dataOf(book));
    book.disclose({ date, value, position_holder: holder }, this.world.rng.int(0, book.active.length));
    this.refresh();
  }
  /** Test helper: the holder (any spelling) leaves the active list without a new disclosure. */
  drop(issuerId, holderName) {
    const book = this.book(issuerId);
    this.earlier.set(issuerId, this.dataOf(book));
    book.removeKey(holderKeyOf(holderName));
    this.refresh();
  }
  /** Sets `last_updated` as the service will report it until the data next changes. */
  setLastUpdated(value) {
    this.updated = value;
  }
  /** Adds an issuer with no disclosures, or renames an existing one. */
  addIssuer(issuer) {
    const book = this.world.books.get(issuer.svc_issuer_id);
    if (book) book.issuer = { ...issuer };
    else this.world.books.set(issuer.svc_issuer_id, new IssuerBook({ ...issuer }, [], [], ADDED_ISSUER_CAP));
  }
  /** Removes an issuer; its positions operation answers 404 from then on. */
  removeIssuer(issuerId) {
    this.world.books.delete(issuerId);
    this.earlier.delete(issuerId);
  }
  /** The scenario in the file format `loadScenarioFile` reads. */
  toJSON() {
    return {
      issuers: this.books().map((book) => ({
        ...book.issuer,
        history: book.history.map((row) => ({ ...row })),
        active: book.copyActive()
      })),
      last_updated: this.updated,
      date: this.world.date
    };
  }
  book(issuerId) {
    const book = this.world.books.get(issuerId);
    if (!book) throw new UnknownIssuerError(issuerId);
    return book;
  }
  dataOf(book) {
    return { active: book.copyActive(), historySize: book.history.length };
  }
  books() {
    return [...this.world.books.values()].sort(byId);
  }
  historySize() {
    return this.books().reduce((sum, book) => sum + book.history.length, 0);
  }
  /** The data changed: `last_updated` moves forward. */
  refresh() {
    this.revision++;
    this.updated = refreshTime(this.world.date, this.revision);
  }
}
function createScenario(options) {
  const { publications } = options;
  if (!publications) {
    const world2 = generateWorld(options);
    return new Scenario(world2, refreshTime(world2.date, 0));
  }
  const days = publications.warmUpDays ?? PUBLICATION_DEFAULTS.warmUpDays;
  const world = generateWorld({ ...options, start: addWeekdays(options.start ?? DEFAULT_START, -days) });
  const publishing = createPublishing(world, options.seed, publications);
  warmUp(world, publishing, days);
  return new Scenario(world, refreshTime(world.date, 0), publishing);
}
export {
  Scenario,
  createScenario
};
