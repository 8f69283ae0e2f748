import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createScenario,
  holderKeyOf,
  type Publication,
  type Sandbox,
  type Scenario,
  startSandbox,
} from '../../src/sandbox/index.js';
import { issuerListSchema, positionsResponseSchema } from '../../src/upstream/schemas.js';
import { call } from './http.js';

// A whole register on a publication schedule (issue 16): per-issuer rates from the distribution fitted
// to a real register, changes that appear only when the dataset is published, and a log of them.

const START = Date.parse('2026-01-05T00:00:00Z');
const DAY = 86_400_000;

/** Publishes `days` business days of changes directly, one a day at 14:30 UTC. */
function publishDays(scenario: Scenario, days: number): readonly Publication[] {
  for (let d = 0; d < days; d++) scenario.publish(START + d * DAY + 52_200_000);
  return scenario.publications();
}

const changedIssuers = (publication: Publication): Set<string> =>
  new Set(publication.changes.map((change) => change.issuerId));

/** Each holder's listed value by holder key (the newest row of a key), as the daemon folds spellings. */
function listed(scenario: Scenario, issuerId: string): string {
  const latest = new Map<string, { date: string; value: number }>();
  for (const row of scenario.active(issuerId) ?? []) {
    const key = holderKeyOf(row.position_holder);
    const seen = latest.get(key);
    if (!seen || seen.date <= row.date) latest.set(key, row);
  }
  return JSON.stringify([...latest].map(([key, row]) => [key, Math.round(row.value * 1e4)]).sort());
}

describe('a register on a publication schedule', () => {
  it('5,000 issuers over 30 publications: the busiest tenth carries most changes, crowded names far more', () => {
    const scenario = createScenario({ seed: 5, issuers: 5_000, publications: {} });
    const rates = scenario.changeRates();
    expect(rates.size).toBe(5_000);
    const published = publishDays(scenario, 30);
    const perIssuer = new Map<string, number>();
    for (const publication of published)
      for (const id of changedIssuers(publication)) perIssuer.set(id, (perIssuer.get(id) ?? 0) + 1);
    const total = [...perIssuer.values()].reduce((s, n) => s + n, 0);
    // The fitted mean is 0.037 changes a business day: about 185 issuers a publication at 5,000.
    expect(total / published.length).toBeGreaterThan(120);
    expect(total / published.length).toBeLessThan(260);
    const byRate = [...rates.keys()].sort((a, b) => (rates.get(b) ?? 0) - (rates.get(a) ?? 0));
    const busiest = byRate.slice(0, 500).reduce((s, id) => s + (perIssuer.get(id) ?? 0), 0);
    expect(busiest / total).toBeGreaterThan(0.5);
    // The busiest rates go to the issuers listing the most holders (the crowded names).
    const crowded = byRate.filter((id) => (scenario.active(id)?.length ?? 0) >= 8);
    const meanRate = (ids: readonly string[]) =>
      ids.reduce((s, id) => s + (rates.get(id) ?? 0), 0) / ids.length;
    expect(crowded.length).toBeGreaterThan(100);
    expect(meanRate(crowded)).toBeGreaterThan(5 * meanRate(byRate));
  });

  it('is deterministic by seed: the same seed publishes the same changes, another seed others', () => {
    const changes = (seed: number) =>
      publishDays(createScenario({ seed, issuers: 400, publications: {} }), 5).map((p) => p.changes);
    expect(changes(9)).toEqual(changes(9));
    expect(changes(9)).not.toEqual(changes(10));
  });

  it('records every change it made and no other: the issuers whose listed holders moved', () => {
    const scenario = createScenario({ seed: 3, issuers: 600, publications: {} });
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    for (let d = 0; d < 5; d++) {
      const before = new Map(ids.map((id) => [id, listed(scenario, id)]));
      const publication = scenario.publish(START + d * DAY);
      const moved = ids.filter((id) => listed(scenario, id) !== before.get(id));
      expect(moved.length).toBeGreaterThan(0);
      expect([...changedIssuers(publication)].sort()).toEqual(moved);
      expect(scenario.lastUpdated()).toBe(new Date(START + d * DAY).toISOString());
      expect(publication.date).toBe(scenario.today());
    }
  });

  it('without a warm-up leaves the world a seed generates as it was: publishing only adds rates', () => {
    const plain = createScenario({ seed: 4, issuers: 50 });
    const publishing = createScenario({ seed: 4, issuers: 50, publications: { warmUpDays: 0 } });
    expect(publishing.toJSON()).toEqual(plain.toJSON());
    expect(plain.changeRates().size).toBe(0);
    expect(plain.nextPublication(START)).toBeUndefined();
  });

  it('warms up a year of changes that end at `start`: busy issuers show recent dates, quiet ones old', () => {
    const scenario = createScenario({ seed: 6, issuers: 1_000, start: '2026-03-02', publications: {} });
    expect(scenario.today()).toBe('2026-03-02');
    const rates = scenario.changeRates();
    const byRate = [...rates.keys()].sort((a, b) => (rates.get(b) ?? 0) - (rates.get(a) ?? 0));
    const newest = (id: string) =>
      (scenario.active(id) ?? [])
        .map((row) => row.date)
        .sort()
        .at(-1) ?? '';
    // Disclosed within the last month.
    const recent = (ids: readonly string[]) =>
      ids.filter((id) => newest(id) >= '2026-02-02').length / ids.length;
    expect(recent(byRate.slice(0, 100))).toBeGreaterThan(0.8);
    expect(recent(byRate.slice(500))).toBeLessThan(0.2);
    const dates = byRate.flatMap((id) => (scenario.all(id) ?? []).map((row) => row.date));
    expect(dates.every((date) => date <= '2026-03-02')).toBe(true);
  });

  it('stops after `count` publications', () => {
    const scenario = createScenario({ seed: 2, issuers: 20, publications: { count: 2 } });
    expect(scenario.nextPublication(START)).toBeDefined();
    publishDays(scenario, 2);
    expect(scenario.nextPublication(START + 3 * DAY)).toBeUndefined();
  });
});

describe('a sandbox publishing on a scaled day', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('serves 5,000 issuers, moves last_updated only at publications, and answers what each published', async () => {
    // A 1 s "day": the publication falls 604 ms into each window (15:30 Amsterdam in winter). Two
    // publications, then the data stays still while it is read.
    const scenario = createScenario({
      seed: 8,
      issuers: 5_000,
      start: '2026-01-05',
      publications: { dayMs: 1_000, count: 2 },
    });
    sandbox = await startSandbox({ scenario, limits: { perMinute: 1e6, perDay: 1e9 } });
    const first = issuerListSchema.parse((await call(sandbox, '/issuers')).json());
    const answeredAt = Date.now();
    expect(first.data).toHaveLength(5_000);
    // The register starts as of its last scheduled publication: one of a 1 s day may fall while the
    // 5,000-issuer list is built, so the bound is the answer's arrival, not the request's start.
    const startVersion = Date.parse(first.last_updated ?? '');
    expect(startVersion).toBeLessThanOrEqual(answeredAt);
    // Either the schedule's instant (604 ms into a window) or a publication made since, stamped when
    // its timer ran: on a loaded machine that is later than scheduled, never earlier.
    const stamps = scenario.publications().map((p) => p.at);
    if (!stamps.includes(startVersion)) expect(startVersion % 1_000).toBe(604);

    while (scenario.publications().length < 2) await sleep(50);
    const [publication] = scenario.publications();
    if (!publication) throw new Error('no publication');
    expect(publication.at % 1_000).toBeGreaterThanOrEqual(604);
    expect(publication.changes.length).toBeGreaterThan(50);
    const list = issuerListSchema.parse((await call(sandbox, '/issuers')).json());
    expect(list.last_updated).toBe(scenario.lastUpdated());
    expect(scenario.publications().map((p) => p.lastUpdated)).toContain(list.last_updated);

    // Every issuer a publication changed answers its current rows, under the dataset's last_updated.
    for (const id of [...changedIssuers(publication)].slice(0, 100)) {
      const answer = await call(sandbox, `/issuers/${id}/positions`);
      const body = positionsResponseSchema.parse(answer.json());
      expect(body.data).toEqual(scenario.active(id));
      expect(body.last_updated).toBe(scenario.lastUpdated());
    }
    expect(sandbox.stats.count({ status: 200 })).toBe(sandbox.stats.requests.length);
  });
});
