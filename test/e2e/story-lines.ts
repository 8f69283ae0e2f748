import { formatPercent } from '../../src/channels/format.js';
import type { EventKind } from '../../src/positions/types.js';

/** One change read back from a rendered line: its kind and old and new value (null where not listed). */
export interface ReadChange {
  kind: EventKind;
  from: number | null;
  to: number | null;
}

// A rendered chain of values: `0.62%`, `1.11% → 1.23%`, `0.56% → off the list at 0.47%`, or a
// sequence `not listed → 0.52% → 0.47% → off the list`. Anchored at the end of a line (after the
// change, the date and the thresholds are cut off), since holder names may hold anything.
const STEP = String.raw`(?:\d+\.\d+%|not listed|off the list(?: at \d+\.\d+%)?|below 0\.5%)`;
const CHAIN = new RegExp(`(?:^|[ :·*])(${STEP}(?: → ${STEP})*)$`);
const TAIL = [
  / · crossed [^·]*$/, // Slack: thresholds crossed
  /; crossed [^;]*$/, // a sentence's thresholds
  / · (?:disclosed for \S+, )?first seen [^·]*$/, // a change first seen late (issue 34)
  / · \d{4}-\d{2}-\d{2}$/, // Slack: a line's own disclosure date
  / on \S+$/, // a sentence's disclosure date
  / \([+\-±]\d+\.\d+ pp\)$/, // the change in pp
];

function value(step: string): number | null {
  const match = /^(\d+\.\d+)%$/.exec(step);
  return match ? Number(match[1]) : null;
}

/**
 * The changes a Slack line or an e-mail text line states, in order: one for a single change, several
 * for a sequence (one holder's changes in one message). Undefined when the line holds no value chain.
 */
export function readChanges(line: string): ReadChange[] | undefined {
  let rest = line.replaceAll('*', '');
  for (const tail of TAIL) rest = rest.replace(tail, '');
  const chain = CHAIN.exec(rest)?.[1];
  if (!chain) return undefined;
  const steps = chain.split(' → ');
  if (steps.length === 1) return [{ kind: 'opened', from: null, to: value(steps[0] ?? '') }];
  const changes: ReadChange[] = [];
  for (let i = 1; i < steps.length; i++) {
    const before = steps[i - 1] ?? '';
    const after = steps[i] ?? '';
    const from = value(before);
    const to = value(after);
    if (from === null) changes.push({ kind: 'opened', from: null, to });
    else if (to === null) changes.push({ kind: 'closed', from, to: null });
    else changes.push({ kind: to > from ? 'increased' : 'decreased', from, to });
  }
  return changes;
}

/**
 * The tag of one change as messages can show it: the kind and the old and new values as printed (a
 * closed position's last value depends on the history lookup, so only the kind).
 */
export function changeTag(change: ReadChange): string {
  if (change.kind === 'closed') return 'closed';
  if (change.kind === 'opened') return `opened ${formatPercent(change.to ?? 0)}`;
  return `${change.kind} ${formatPercent(change.from ?? 0)}>${formatPercent(change.to ?? 0)}`;
}
