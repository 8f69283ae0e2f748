import { formatPercent } from '../channels/format.js';
import { compareText } from '../positions/collapse.js';
import { collapseRows, holderKey, totalShort } from '../positions/index.js';
import type { IssuerPosition } from '../upstream/schemas.js';

/** The rows of `shortwatch positions` (holder, value, date) and the line that sums them up. */
export interface PositionRows {
  rows: string[][];
  summary: string;
}

/**
 * Active positions as the alerts see them: one row per holder key (two spellings of a fund are one
 * holder, its latest disclosure shown), largest first, and the total counting each holder once.
 */
export function activeTable(data: readonly IssuerPosition[]): PositionRows {
  const held = collapseRows(data);
  const rows = Object.values(held)
    .sort((a, b) => b.value - a.value || compareText(a.holder, b.holder))
    .map((p) => [p.holder, formatPercent(p.value), p.date]);
  return {
    rows,
    summary: `${holders(rows.length)}, total disclosed short ${formatPercent(totalShort(held))}`,
  };
}

/** The full history: every disclosure, newest first; holders counted by holder key. */
export function historyTable(data: readonly IssuerPosition[]): PositionRows {
  const rows = [...data]
    .sort((a, b) => b.date.localeCompare(a.date) || b.value - a.value)
    .map((p) => [p.position_holder, formatPercent(p.value), p.date]);
  const keys = new Set(data.map((p) => holderKey(p.position_holder)));
  return { rows, summary: `${rows.length} disclosures by ${holders(keys.size)}` };
}

function holders(count: number): string {
  return count === 1 ? '1 holder' : `${count} holders`;
}
