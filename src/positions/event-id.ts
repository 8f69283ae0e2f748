import { createHash } from 'node:crypto';
import { round4 } from './round.js';
import type { Disclosure, EventKind, Snapshot } from './types.js';

/**
 * What identifies one event: where it was observed (the issuer, the holder and the snapshot the diff
 * moved from) and what was observed. The same poll replayed against the same snapshot yields the same
 * parts, hence the same id; a later transition that looks the same moves from a later snapshot and gets
 * a new one, so dedupe protects against replays only, never against news.
 */
export interface EventIdParts {
  issuerId: string;
  holderKey: string;
  /** The occurrence the diff moved from: {@link snapshotOccurrence} of the previous snapshot. */
  from: string;
  kind: EventKind;
  previous: Disclosure | null;
  current: Disclosure | null;
}

/** The occurrence id of the snapshot a first sight moves from: there is none. */
export const FIRST_SIGHT = 'first-sight';

/**
 * A snapshot's occurrence id: its generation (a counter committed with it) and its poll instant. The
 * instant tells apart two snapshots of equal generation, as after Redis state was lost and rebuilt, and
 * snapshots written before the counter existed (generation 0).
 */
export function snapshotOccurrence(snapshot: Pick<Snapshot, 'generation' | 'polledAt'> | null): string {
  return snapshot === null ? FIRST_SIGHT : `${snapshot.generation ?? 0}@${snapshot.polledAt}`;
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
    parts.from,
    parts.kind,
    canonicalDisclosure(parts.previous),
    canonicalDisclosure(parts.current),
  ]);
  return `e${createHash('sha256').update(canonical).digest('hex').slice(0, 32)}`;
}

function canonicalDisclosure(disclosure: Disclosure | null): [number, string] | null {
  return disclosure === null ? null : [round4(disclosure.value), disclosure.date];
}
