import { round4 } from '../positions/round.js';
import type { IssuerPosition } from '../upstream/schemas.js';
import type { ScenarioChange } from './scenario-types.js';

// An independent copy of the daemon's diff rules: it is the oracle tests compare the daemon against,
// so it must not import src/positions.

/** Keys already worked out: a register names few holders, and a warm-up asks for them often. */
const KEYS = new Map<string, string>();
const KEYS_KEPT = 10_000;

/** Holder identity across spellings: NFKC, lower-cased, letters and digits only. */
export function holderKeyOf(name: string): string {
  const known = KEYS.get(name);
  if (known !== undefined) return known;
  const key = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
  if (KEYS.size >= KEYS_KEPT) KEYS.clear();
  KEYS.set(name, key);
  return key;
}

/** Each holder key's row; two rows of one key: the later date wins (a tie: the later row). */
export function latestByKey(rows: readonly IssuerPosition[]): Map<string, IssuerPosition> {
  const latest = new Map<string, IssuerPosition>();
  for (const row of rows) {
    const key = holderKeyOf(row.position_holder);
    const seen = latest.get(key);
    if (!seen || row.date >= seen.date) latest.set(key, row);
  }
  return latest;
}

/** The changes between two active lists of one issuer, sorted by holder key. */
export function diffActive(
  issuerId: string,
  before: readonly IssuerPosition[],
  after: readonly IssuerPosition[],
): ScenarioChange[] {
  const old = latestByKey(before);
  const now = latestByKey(after);
  const changes: ScenarioChange[] = [];
  for (const [holderKey, row] of now) {
    const prev = old.get(holderKey);
    const holder = row.position_holder;
    if (!prev) changes.push({ issuerId, holder, holderKey, kind: 'opened', from: null, to: row.value });
    else if (round4(prev.value) !== round4(row.value)) {
      const kind = row.value > prev.value ? 'increased' : 'decreased';
      changes.push({ issuerId, holder, holderKey, kind, from: prev.value, to: row.value });
    }
  }
  for (const [holderKey, prev] of old) {
    if (now.has(holderKey)) continue;
    const holder = prev.position_holder;
    changes.push({ issuerId, holder, holderKey, kind: 'closed', from: prev.value, to: null });
  }
  return changes.sort((a, b) => (a.holderKey < b.holderKey ? -1 : a.holderKey > b.holderKey ? 1 : 0));
}
