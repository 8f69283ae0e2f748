import { holderKey } from '../positions/holder-key.js';
import { round4 } from '../positions/round.js';
import type { Disclosure, EventKind, PositionEvent } from '../positions/types.js';
import { crosses } from './filter.js';

/** What `shortwatch route` is told about an imagined event. */
export interface SyntheticEventInput {
  /** An issuer id or name; a string serves as both. */
  issuer: string | { id: string; name: string };
  holder: string;
  kind: EventKind;
  /** The value after the change; for `closed`, the final disclosed value when `previous` is also given. */
  value: number;
  /** The value before the change; defaults to `value` ∓ 0.1 for increased/decreased, `value` for closed. */
  previous?: number;
  /** Position thresholds to report as crossed. */
  thresholds?: readonly number[];
  /** When the event is imagined to happen. */
  now: Date;
}

function valuesOf(input: SyntheticEventInput): {
  before: number | null;
  after: number | null;
  final?: number;
} {
  switch (input.kind) {
    case 'opened':
      return { before: null, after: input.value };
    case 'increased':
      return { before: input.previous ?? Math.max(0, round4(input.value - 0.1)), after: input.value };
    case 'decreased':
      return { before: input.previous ?? round4(input.value + 0.1), after: input.value };
    case 'closed':
      return input.previous === undefined
        ? { before: input.value, after: null }
        : { before: input.previous, after: null, final: input.value };
  }
}

/** A plausible event for trying routes: the issuer's total is this holder's position alone. */
export function syntheticEvent(input: SyntheticEventInput): PositionEvent {
  const issuer = typeof input.issuer === 'string' ? { id: input.issuer, name: input.issuer } : input.issuer;
  const date = input.now.toISOString().slice(0, 10);
  const disclosure = (value: number | null): Disclosure | null => (value === null ? null : { value, date });
  const { before, after, final } = valuesOf(input);
  const key = holderKey(input.holder);
  const from = before ?? 0;
  const to = after ?? 0;
  return {
    id: `synthetic-${input.kind}-${key || 'holder'}`,
    kind: input.kind,
    issuer,
    holderKey: key,
    holder: input.holder,
    previous: disclosure(before),
    current: disclosure(after),
    ...(final === undefined ? {} : { final: { value: final, date } }),
    delta: round4(to - from),
    thresholdsCrossed: [...(input.thresholds ?? [])]
      .filter((t) => crosses(from, to, t))
      .sort((a, b) => a - b),
    issuerTotal: { before: from, after: to },
    detectedAt: input.now.toISOString(),
  };
}
