import type { Scenario } from '../../src/sandbox/index.js';
import { HOLDER_NAMES } from '../../src/sandbox/names.js';
import type { Random } from '../../src/sandbox/prng.js';

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * One refresh of the dataset: changes `rate` of the listed positions (at least one) through the
 * scenario's own helpers, as a register's day would: a fifth open a new holder on the same issuer, a
 * fifth close, the rest move by up to ±0.3 points (never under 0.5%). Opening and closing balance, so
 * the dataset keeps its size over many refreshes. Returns the issuers that changed.
 *
 * Linear in the number of positions; the scenario's own `step()` rescans every position for every
 * change, which is too slow for the benchmarks' sizes.
 */
export function churn(scenario: Scenario, issuerIds: readonly string[], rng: Random, rate: number): string[] {
  const positions: { issuerId: string; holder: string; value: number }[] = [];
  for (const issuerId of issuerIds) {
    for (const row of scenario.active(issuerId) ?? []) {
      positions.push({ issuerId, holder: row.position_holder, value: row.value });
    }
  }
  const count = Math.max(1, Math.round(rate * positions.length));
  const changed = new Set<string>();
  for (const position of rng.sample(positions, count)) {
    const roll = rng.next();
    if (roll < 0.2) {
      const listed = new Set((scenario.active(position.issuerId) ?? []).map((r) => r.position_holder));
      const holder = rng.pick(HOLDER_NAMES.filter((name) => !listed.has(name)));
      if (holder === undefined) continue;
      scenario.disclose(position.issuerId, holder, round2(0.5 + rng.next() * 1.5));
    } else if (roll < 0.4) {
      scenario.drop(position.issuerId, position.holder);
    } else {
      const step = round2((rng.next() - 0.5) * 0.6) || 0.01;
      scenario.disclose(position.issuerId, position.holder, Math.max(0.5, round2(position.value + step)));
    }
    changed.add(position.issuerId);
  }
  return [...changed];
}
