import type { PositionEvent, Snapshot } from './types.js';

/** True when shortwatch had seen the event by `atMs`: it was detected then or before (issue 34). */
export function seenBy(event: Pick<PositionEvent, 'detectedAt'>, atMs: number): boolean {
  return Date.parse(event.detectedAt) <= atMs;
}

/** One holder's position as shortwatch had seen it at a time: its value and date, and when first seen. */
export interface PositionAsOf {
  holderKey: string;
  holder: string;
  value: number;
  /** The position date the source gave. */
  date: string;
  /** When the holder filed it, where the register says. */
  reportedOn?: string;
  /**
   * When shortwatch first saw this value (ISO 8601): the event that brought it, or the issuer's first
   * read for a position held since then. Undefined when the event log no longer reaches that far.
   */
  firstSeen?: string;
}

/** An issuer's positions as seen at a time, and whether the log reached far enough back to tell. */
export interface IssuerAsOf {
  /** False: shortwatch had not read the issuer yet at that time. */
  seen: boolean;
  positions: PositionAsOf[];
  /** False when events after the time may have been trimmed from the log: the answer can be wrong. */
  complete: boolean;
}

/** What {@link positionsAsOf} reads: the issuer's snapshot now and its logged events of that source. */
export interface AsOfInput {
  snapshot: Snapshot | null;
  /** The issuer's events of the snapshot's source (no aggregates needed: they are skipped), any order. */
  events: readonly PositionEvent[];
  /** True when the log held as many events as it keeps: older ones may be gone. */
  trimmed: boolean;
}

/**
 * The positions shortwatch had seen of one issuer at `atMs`: the snapshot now, with every named event
 * detected after `atMs` undone, newest first (an opening removed, any other change set back to its
 * previous value). What the register dates a position does not matter, only when shortwatch saw it: a
 * late filing is absent before it was read, a revision shows its old value before it. Pure.
 */
export function positionsAsOf(input: AsOfInput, atMs: number): IssuerAsOf {
  const { snapshot } = input;
  const since = snapshot === null ? Number.NaN : Date.parse(snapshot.watch?.since ?? snapshot.polledAt);
  if (snapshot === null || !(since <= atMs)) return { seen: false, positions: [], complete: true };
  const named = input.events
    .filter((e) => e.aggregate === undefined)
    .sort((a, b) => Date.parse(b.detectedAt) - Date.parse(a.detectedAt));
  const held = new Map<string, PositionAsOf>(
    Object.entries(snapshot.positions).map(([key, p]) => [key, { holderKey: key, ...p }]),
  );
  for (const event of named) {
    if (seenBy(event, atMs)) break;
    if (event.previous === null) held.delete(event.holderKey);
    else held.set(event.holderKey, { holderKey: event.holderKey, holder: event.holder, ...event.previous });
  }
  const oldest = named.at(-1);
  const complete = !input.trimmed || (oldest !== undefined && seenBy(oldest, atMs));
  const positions = [...held.values()].map((p) => {
    const brought = named.find((e) => e.holderKey === p.holderKey && seenBy(e, atMs) && e.current !== null);
    const firstSeen = brought?.detectedAt ?? (input.trimmed ? undefined : snapshot.watch?.since);
    return firstSeen === undefined ? p : { ...p, firstSeen };
  });
  positions.sort((a, b) => b.value - a.value || a.holderKey.localeCompare(b.holderKey));
  return { seen: true, positions, complete };
}
