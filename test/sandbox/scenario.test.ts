import { describe, expect, it } from 'vitest';
import {
  createScenario,
  isUnknownIssuerError,
  type Scenario,
  type ScenarioChange,
} from '../../src/sandbox/index.js';
import type { IssuerPosition } from '../../src/upstream/schemas.js';

// An independent recomputation of the daemon's rules, to check the scenario's own oracle against.
const keyOf = (name: string): string =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

function byKey(rows: readonly IssuerPosition[]): Map<string, IssuerPosition> {
  const map = new Map<string, IssuerPosition>();
  for (const row of rows) {
    const seen = map.get(keyOf(row.position_holder));
    if (!seen || seen.date <= row.date) map.set(keyOf(row.position_holder), row);
  }
  return map;
}

const r4 = (value: number): number => Math.round(value * 1e4) / 1e4;

function recompute(issuerId: string, before: IssuerPosition[], after: IssuerPosition[]): string[] {
  const old = byKey(before);
  const now = byKey(after);
  const out: string[] = [];
  for (const [key, row] of now) {
    const prev = old.get(key);
    if (!prev) out.push(`${issuerId}|${key}|opened|null|${row.value}`);
    else if (r4(prev.value) !== r4(row.value)) {
      out.push(
        `${issuerId}|${key}|${row.value > prev.value ? 'increased' : 'decreased'}|${prev.value}|${row.value}`,
      );
    }
  }
  for (const [key, prev] of old) if (!now.has(key)) out.push(`${issuerId}|${key}|closed|${prev.value}|null`);
  return out;
}

const line = (c: ScenarioChange): string => `${c.issuerId}|${c.holderKey}|${c.kind}|${c.from}|${c.to}`;

function snapshot(scenario: Scenario): Map<string, IssuerPosition[]> {
  return new Map(scenario.issuers().map((i) => [i.svc_issuer_id, scenario.active(i.svc_issuer_id) ?? []]));
}

function run(seed: number, steps: number): { scenario: Scenario; history: ScenarioChange[][] } {
  const scenario = createScenario({ seed });
  const history = Array.from({ length: steps }, () => scenario.step());
  return { scenario, history };
}

describe('scenario generation', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = run(42, 50);
    const b = run(42, 50);
    expect(b.history).toEqual(a.history);
    expect(b.scenario.toJSON()).toEqual(a.scenario.toJSON());
    expect(run(43, 50).history).not.toEqual(a.history);
  });

  it('makes 12 issuers ISS-0001.. sorted by id, with a last_updated', () => {
    const scenario = createScenario({ seed: 1 });
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `ISS-${String(i + 1).padStart(4, '0')}`));
    expect(new Set(scenario.issuers().map((i) => i.name)).size).toBe(12);
    expect(Date.parse(scenario.lastUpdated() ?? '')).not.toBeNaN();
    expect(createScenario({ seed: 1, issuers: 3 }).issuers()).toHaveLength(3);
  });

  it.each([1, 2, 3, 99])('has the awkward features of a real register (seed %i)', (seed) => {
    const scenario = createScenario({ seed });
    const ids = scenario.issuers().map((i) => i.svc_issuer_id);
    const spellings = new Map<string, Set<string>>();
    const values: number[] = [];
    for (const id of ids) {
      for (const row of scenario.all(id) ?? []) {
        spellings.set(
          keyOf(row.position_holder),
          (spellings.get(keyOf(row.position_holder)) ?? new Set()).add(row.position_holder),
        );
        values.push(row.value);
      }
    }
    expect([...spellings.values()].some((names) => names.size >= 3)).toBe(true);
    expect(ids.some((id) => scenario.all(id)?.length === 0)).toBe(true);
    // A crowded name: 8 holders or more, as a register shows a few.
    expect(ids.some((id) => byKey(scenario.active(id) ?? []).size >= 8)).toBe(true);
    expect(values.some((value) => value !== r4(value))).toBe(true);
    // One fund listed twice under two spellings in one active list.
    expect(ids.some((id) => (scenario.active(id) ?? []).length > byKey(scenario.active(id) ?? []).size)).toBe(
      true,
    );
    for (const id of ids) {
      for (const row of scenario.active(id) ?? []) expect(row.date <= scenario.today()).toBe(true);
    }
  });
});

describe('scenario steps', () => {
  it('reports exactly the changes an independent diff of active() sees, over 200 steps', () => {
    const scenario = createScenario({ seed: 5 });
    let total = 0;
    for (let i = 0; i < 200; i++) {
      const before = snapshot(scenario);
      const changes = scenario.step();
      const after = snapshot(scenario);
      const expected = [...after.keys()].flatMap((id) =>
        recompute(id, before.get(id) ?? [], after.get(id) ?? []),
      );
      expect(changes.map(line).sort()).toEqual(expected.sort());
      expect(changes.length).toBeGreaterThanOrEqual(1);
      total += changes.length;
    }
    expect(total).toBeGreaterThan(200);
  });

  it('advances one weekday per step and moves last_updated forward', () => {
    const scenario = createScenario({ seed: 1, start: '2026-01-09' }); // a Friday
    const updated = scenario.lastUpdated() ?? '';
    scenario.step();
    expect(scenario.today()).toBe('2026-01-12');
    expect((scenario.lastUpdated() ?? '') > updated).toBe(true);
    scenario.step();
    expect(scenario.today()).toBe('2026-01-13');
  });

  it('lists a value under 0.5 for one step (decreased), then drops it (closed)', () => {
    const { scenario, history } = run(8, 1);
    const seen = { fading: 0 };
    let previous = history[0] ?? [];
    for (let i = 0; i < 150; i++) {
      const fading = previous.filter((c) => c.kind === 'decreased' && (c.to ?? 1) < 0.5);
      const changes = scenario.step();
      for (const c of fading) {
        seen.fading++;
        expect(changes).toContainEqual(
          expect.objectContaining({
            issuerId: c.issuerId,
            holderKey: c.holderKey,
            kind: 'closed',
            from: c.to,
          }),
        );
      }
      previous = changes;
    }
    expect(seen.fading).toBeGreaterThan(5);
  });

  it('reopens about two of three closed positions a few steps later near 0.5-0.7%', () => {
    const { history } = run(11, 300);
    const closes: { step: number; change: ScenarioChange }[] = [];
    let reopened = 0;
    history.forEach((changes, step) => {
      for (const change of changes) if (change.kind === 'closed') closes.push({ step, change });
    });
    for (const { step, change } of closes) {
      const again = history
        .slice(step + 1, step + 12)
        .flat()
        .find(
          (c) => c.kind === 'opened' && c.issuerId === change.issuerId && c.holderKey === change.holderKey,
        );
      if (again && (again.to ?? 0) >= 0.5 && (again.to ?? 0) <= 0.7) reopened++;
    }
    expect(closes.length).toBeGreaterThan(50);
    expect(reopened / closes.length).toBeGreaterThan(0.45);
    expect(reopened / closes.length).toBeLessThan(0.9);
  });

  it('has one holder flapping around 0.5% on one issuer', () => {
    const { history } = run(1, 100);
    const opens = new Map<string, number>();
    for (const c of history.flat()) {
      if (c.kind === 'opened')
        opens.set(`${c.issuerId}|${c.holderKey}`, (opens.get(`${c.issuerId}|${c.holderKey}`) ?? 0) + 1);
    }
    expect(Math.max(...opens.values())).toBeGreaterThanOrEqual(8);
  });

  it('re-discloses some positions with the same value under a new date, which is no change', () => {
    const scenario = createScenario({ seed: 4 });
    let quiet = 0;
    for (let i = 0; i < 100; i++) {
      const before = snapshot(scenario);
      const changes = scenario.step();
      for (const [id, rows] of snapshot(scenario)) {
        const old = byKey(before.get(id) ?? []);
        for (const [key, row] of byKey(rows)) {
          const prev = old.get(key);
          if (prev && prev.date !== row.date && r4(prev.value) === r4(row.value)) {
            quiet++;
            expect(changes.some((c) => c.issuerId === id && c.holderKey === key)).toBe(false);
          }
        }
      }
    }
    expect(quiet).toBeGreaterThan(5);
  });

  it('shuffles the row order of active lists', () => {
    const scenario = createScenario({ seed: 1 });
    const big =
      scenario.issuers().find((i) => (scenario.active(i.svc_issuer_id)?.length ?? 0) >= 8)?.svc_issuer_id ??
      '';
    expect(big).not.toBe('');
    const names = (): string[] => (scenario.active(big) ?? []).map((row) => row.position_holder);
    const before = names();
    scenario.step();
    const common = names().filter((name) => before.includes(name));
    expect(common).not.toEqual(before.filter((name) => common.includes(name)));
  });
});

describe('scenario helpers', () => {
  it('discloses a new row that replaces the holder under any spelling, and refreshes last_updated', () => {
    const scenario = createScenario({ seed: 1 });
    scenario.addIssuer({ svc_issuer_id: 'T-1', name: 'Test plc' });
    const updated = scenario.lastUpdated() ?? '';
    scenario.disclose('T-1', 'D. E. Shaw & Co., L.P.', 0.8, '2026-01-02');
    scenario.disclose('T-1', 'D.E. SHAW & CO LP', 0.9);
    expect(scenario.active('T-1')).toEqual([
      { date: scenario.today(), value: 0.9, position_holder: 'D.E. SHAW & CO LP' },
    ]);
    expect(scenario.all('T-1')).toHaveLength(2);
    expect((scenario.lastUpdated() ?? '') > updated).toBe(true);
  });

  it('drops a holder from the active list, keeping its history', () => {
    const scenario = createScenario({ seed: 1 });
    scenario.addIssuer({ svc_issuer_id: 'T-1', name: 'Test plc' });
    scenario.disclose('T-1', 'Citadel Advisors LLC', 0.7);
    scenario.drop('T-1', 'CITADEL ADVISORS, LLC');
    expect(scenario.active('T-1')).toEqual([]);
    expect(scenario.all('T-1')).toHaveLength(1);
  });

  it('sets last_updated, renames and removes issuers', () => {
    const scenario = createScenario({ seed: 1 });
    scenario.setLastUpdated('2026-02-01T00:00:00Z');
    expect(scenario.lastUpdated()).toBe('2026-02-01T00:00:00Z');
    scenario.addIssuer({ svc_issuer_id: 'ISS-0001', name: 'Renamed plc' });
    expect(scenario.issuer('ISS-0001')?.name).toBe('Renamed plc');
    scenario.removeIssuer('ISS-0001');
    expect(scenario.active('ISS-0001')).toBeUndefined();
    expect(scenario.all('ISS-0001')).toBeUndefined();
  });

  it('throws a typed error for an unknown issuer', () => {
    const scenario = createScenario({ seed: 1 });
    let caught: unknown;
    try {
      scenario.disclose('NOPE', 'Someone LLP', 1);
    } catch (error) {
      caught = error;
    }
    expect(isUnknownIssuerError(caught) && caught.issuerId).toBe('NOPE');
  });

  it('hands out copies, so callers cannot change the scenario', () => {
    const scenario = createScenario({ seed: 1 });
    const rows = scenario.active('ISS-0001') ?? [];
    const first = rows[0];
    if (first) first.value = 99;
    rows.length = 0;
    expect(scenario.active('ISS-0001')?.some((row) => row.value === 99)).toBe(false);
  });
});
