import { createHash } from 'node:crypto';
import { round4 } from './round.js';
import type { Disclosure, EventKind } from './types.js';

/** What identifies one event: the same poll replayed yields the same parts, hence the same id. */
export interface EventIdParts {
  issuerId: string;
  holderKey: string;
  kind: EventKind;
  previous: Disclosure | null;
  current: Disclosure | null;
}

/**
 * A deterministic event id: `e` + 32 hex digits of SHA-256 over a canonical JSON of the parts.
 * The prefix keeps it from ever being all digits and it has no `:`, so BullMQ accepts it as a job id.
 */
export function eventId(parts: EventIdParts): string {
  // A fixed-order array is canonical JSON: no key order to depend on.
  const canonical = JSON.stringify([
    parts.issuerId,
    parts.holderKey,
    parts.kind,
    canonicalDisclosure(parts.previous),
    canonicalDisclosure(parts.current),
  ]);
  return `e${createHash('sha256').update(canonical).digest('hex').slice(0, 32)}`;
}

function canonicalDisclosure(disclosure: Disclosure | null): [number, string] | null {
  return disclosure === null ? null : [round4(disclosure.value), disclosure.date];
}
