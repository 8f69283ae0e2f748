import type { IssuerPosition } from '../upstream/schemas.js';
import { holderKey } from './holder-key.js';
import { round4 } from './round.js';
import type { HeldPosition } from './types.js';

/**
 * One position per holder key from an upstream list: the later date wins, then the higher value, then
 * the smaller name (code units), so the result never depends on row order. Values are rounded to 4 decimals.
 */
export function collapseRows(rows: readonly IssuerPosition[]): Record<string, HeldPosition> {
  const byKey = new Map<string, HeldPosition>();
  for (const row of rows) {
    const candidate: HeldPosition = { holder: row.position_holder, value: round4(row.value), date: row.date };
    const key = holderKey(row.position_holder);
    const kept = byKey.get(key);
    if (kept === undefined || wins(candidate, kept)) byKey.set(key, candidate);
  }
  // Sorted keys keep snapshots byte-stable whatever the row order.
  return Object.fromEntries([...byKey.entries()].sort(([a], [b]) => compareText(a, b)));
}

function wins(candidate: HeldPosition, kept: HeldPosition): boolean {
  if (candidate.date !== kept.date) return candidate.date > kept.date;
  if (candidate.value !== kept.value) return candidate.value > kept.value;
  return candidate.holder < kept.holder;
}

/** Locale-independent ordering (code units), so sorting never depends on the host's ICU data. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
