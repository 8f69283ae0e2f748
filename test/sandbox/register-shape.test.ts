import { describe, expect, it } from 'vitest';
import { createScenario, holderKeyOf, type Scenario } from '../../src/sandbox/index.js';
import { CROWDED_MAX_HOLDERS, ORDINARY_MAX_HOLDERS } from '../../src/sandbox/register-shape.js';

// The generated world against the shape of a public register (figures in src/sandbox/register-shape.ts).

/** A simulated month: one step is one weekday. */
const MONTH = 22;

/** Each holder's current value on an issuer, spellings folded as the daemon folds them. */
function holdersOf(scenario: Scenario, issuerId: string): Map<string, number> {
  const latest = new Map<string, { date: string; value: number }>();
  for (const row of scenario.active(issuerId) ?? []) {
    const key = holderKeyOf(row.position_holder);
    const seen = latest.get(key);
    if (!seen || seen.date <= row.date) latest.set(key, row);
  }
  return new Map([...latest].map(([key, row]) => [key, row.value]));
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const share = <T>(items: readonly T[], test: (item: T) => boolean): number =>
  items.filter(test).length / items.length;

const sum = (values: Iterable<number>): number => [...values].reduce((total, v) => total + v, 0);

/** Runs a month and counts each issuer's changes. */
function runMonth(scenario: Scenario): Map<string, number> {
  const changes = new Map(scenario.issuers().map((i) => [i.svc_issuer_id, 0]));
  for (let day = 0; day < MONTH; day++) {
    for (const change of scenario.step()) {
      changes.set(change.issuerId, (changes.get(change.issuerId) ?? 0) + 1);
    }
  }
  return changes;
}

describe('a generated world has the shape of a public register', () => {
  it.each([1, 2, 3])('300 issuers after a simulated month (seed %i)', (seed) => {
    const scenario = createScenario({ seed, issuers: 300 });
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    const crowdedAtStart = ids.filter((id) => holdersOf(scenario, id).size > ORDINARY_MAX_HOLDERS);
    const changes = runMonth(scenario);
    const holders = ids.map((id) => holdersOf(scenario, id));
    const counts = holders.map((h) => h.size);
    const totals = holders.map((h) => sum(h.values()));
    const values = holders.flatMap((h) => [...h.values()]);

    expect(median(counts)).toBeLessThanOrEqual(4);
    expect(share(counts, (n) => n >= 1 && n <= 4)).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...counts)).toBeGreaterThan(ORDINARY_MAX_HOLDERS);
    expect(Math.max(...counts)).toBeLessThanOrEqual(CROWDED_MAX_HOLDERS);
    expect(share(totals, (t) => t < 10)).toBeGreaterThanOrEqual(0.8);
    expect(share(values, (v) => v >= 0.5 && v < 1.5)).toBeGreaterThanOrEqual(0.7);

    const byChanges = [...changes.values()].sort((a, b) => b - a);
    const all = sum(byChanges);
    expect(all).toBeGreaterThan(MONTH * 20);
    expect(sum(byChanges.slice(0, ids.length / 10)) / all).toBeGreaterThanOrEqual(0.4);
    // The crowded names change far more often than the rest, issuer for issuer.
    const perIssuer = (group: readonly string[]) =>
      sum(group.map((id) => changes.get(id) ?? 0)) / group.length;
    const rest = ids.filter((id) => !crowdedAtStart.includes(id));
    expect(crowdedAtStart.length).toBeGreaterThanOrEqual(10);
    expect(perIssuer(crowdedAtStart)).toBeGreaterThan(5 * perIssuer(rest));
  });

  it.each([6, 8, 12])(
    'a small world of %i issuers has one crowded name and none over the band (40 seeds)',
    (issuers) => {
      for (let seed = 1; seed <= 40; seed++) {
        const scenario = createScenario({ seed, issuers });
        const ids = scenario.issuers().map((i) => i.svc_issuer_id);
        const counts = () => ids.map((id) => holdersOf(scenario, id).size);
        expect(counts().filter((n) => n > ORDINARY_MAX_HOLDERS)).toHaveLength(1);
        runMonth(scenario);
        expect(Math.max(...counts())).toBeLessThanOrEqual(CROWDED_MAX_HOLDERS);
      }
    },
  );

  it('still draws ordinary issuers from `holdersPerIssuer` when given', () => {
    const scenario = createScenario({ seed: 5, issuers: 40, holdersPerIssuer: [3, 3] });
    const counts = scenario.issuers().map((i) => holdersOf(scenario, i.svc_issuer_id).size);
    // One issuer without a register, one flapper (1-3 holders), the crowded names (8-15), the rest 3.
    expect(counts.filter((n) => n === 3).length).toBeGreaterThanOrEqual(40 - 2 - 2 - 2);
    expect(counts.every((n) => n <= 3 || n > ORDINARY_MAX_HOLDERS || n === 0)).toBe(true);
  });
});
