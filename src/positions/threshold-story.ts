import { DAY_MS } from '../time/units.js';
import type { Disclosure, HolderMemory, PositionEvent, ThresholdStory } from './types.js';

/**
 * The public disclosure threshold of net short positions (UK and EU short selling rules): a position
 * under it is not published, so a holder "falls below" it rather than closing.
 */
export const DISCLOSURE_THRESHOLD = 0.5;

/** How long a holder's fall below the threshold is remembered, and how close crossings count as a flap. */
export interface AlertWindows {
  /** A reopening within this long after a fall below reads "back above 0.5% after N days"; 0: never. */
  reopenWindowMs: number;
  /** A second crossing within this long holds the holder's changes for one message; 0: never held. */
  flapWindowMs: number;
}

/** Whether a disclosure is public: a position that left the list (null) is below the threshold. */
export function isAbove(disclosure: Disclosure | null): boolean {
  return disclosure !== null && disclosure.value >= DISCLOSURE_THRESHOLD;
}

/** True when the event moved the holder across the threshold, either way. */
export function crossesThreshold(event: Pick<PositionEvent, 'previous' | 'current'>): boolean {
  return isAbove(event.previous) !== isAbove(event.current);
}

/** Whole days from one disclosure date (or instant) to another; never negative. */
function daysBetween(from: string, to: string): number {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms > 0 ? Math.floor(ms / DAY_MS) : 0;
}

/**
 * The story of one event against the threshold, from the holder's memory: a fall below is told once;
 * its later disappearance from the register confirms it; a return within the reopen window says after
 * how long. Undefined for a move that stays on one side (and for a fresh opening).
 */
function storyOf(
  event: PositionEvent,
  memory: HolderMemory | undefined,
  now: number,
  windows: AlertWindows,
): ThresholdStory | undefined {
  const { previous, current } = event;
  if (isAbove(previous) && !isAbove(current)) return { kind: 'fell-below' };
  if (previous !== null && current === null) {
    // Listed under the threshold, now gone: the fall was told when it was disclosed, to the channels it
    // names; without a record (none kept, or kept before channels were) it was told to none.
    const toldTo = memory?.below?.toldTo;
    return {
      kind: 'below-confirmed',
      fellBelowOn: memory?.below?.date ?? previous.date,
      ...(toldTo === undefined ? {} : { toldTo }),
    };
  }
  if (!isAbove(previous) && isAbove(current) && current !== null) {
    const below = memory?.below ?? (previous ? { date: previous.date, at: event.detectedAt } : undefined);
    if (!below || now - Date.parse(below.at) > windows.reopenWindowMs) return undefined;
    return { kind: 'back-above', fellBelowOn: below.date, daysBelow: daysBetween(below.date, current.date) };
  }
  return undefined;
}

/** The memory a fall below leaves: the sub-threshold disclosure if one was listed, else the last public one. */
function belowMemory(event: PositionEvent): NonNullable<HolderMemory['below']> {
  const listed = event.current ?? event.final ?? event.previous;
  return { date: listed?.date ?? event.detectedAt.slice(0, 10), at: event.detectedAt };
}

/** The events annotated with their story and hold, and each holder's memory after them. */
export interface StoryResult {
  events: PositionEvent[];
  memory: Record<string, HolderMemory>;
}

/**
 * Tells each event's threshold story and decides which belong to a flap: a second crossing by one holder
 * within `flapWindowMs` starts a hold, and every change of that holder until the hold ends carries it, so
 * human channels send them as one message with the sequence (machine channels and the event log see each
 * change as it comes). Pure: the memory travels in the snapshot and is written with it.
 */
export function tellStories(
  events: readonly PositionEvent[],
  previousMemory: Readonly<Record<string, HolderMemory>>,
  now: Date,
  windows: AlertWindows,
): StoryResult {
  const at = now.getTime();
  const memory = pruneMemory(previousMemory, at, windows);
  const told = events.map((event) => {
    const before = Object.hasOwn(memory, event.holderKey) ? memory[event.holderKey] : undefined;
    const story = storyOf(event, before, at, windows);
    const after: HolderMemory = { ...before };
    if (story?.kind === 'fell-below') after.below = belowMemory(event);
    // Closed: what each channel was told is spent; the fall stays for a return within the reopen window.
    if (story?.kind === 'below-confirmed') after.below = closedBelow(before?.below ?? belowMemory(event));
    if (isAbove(event.current)) delete after.below;

    let hold = after.hold && at < Date.parse(after.hold.until) ? after.hold : undefined;
    if (crossesThreshold(event)) {
      const last = after.lastCrossing === undefined ? Number.NaN : Date.parse(after.lastCrossing);
      if (!hold && windows.flapWindowMs > 0 && at - last <= windows.flapWindowMs) {
        hold = { since: event.detectedAt, until: new Date(at + windows.flapWindowMs).toISOString() };
      }
      after.lastCrossing = event.detectedAt;
    }
    if (hold) after.hold = hold;
    else delete after.hold;
    setMemory(memory, event.holderKey, after);
    return { ...event, ...(story ? { story } : {}), ...(hold ? { hold } : {}) };
  });
  return { events: told, memory: sortedMemory(memory) };
}

/** A fall whose position has closed: its date and instant, without the record of who was told. */
function closedBelow(below: NonNullable<HolderMemory['below']>): NonNullable<HolderMemory['below']> {
  return { date: below.date, at: below.at };
}

/**
 * Drops what no later event can use: crossings and holds past, and falls of closed positions older than
 * the reopen window. A fall still awaiting its close (it carries `toldTo`) is kept however old, so the
 * close reads what each channel was told (a close 31 days after the fall, or with `reopenWindow: 0s`).
 */
function pruneMemory(
  memory: Readonly<Record<string, HolderMemory>>,
  at: number,
  windows: AlertWindows,
): Record<string, HolderMemory> {
  const kept: Record<string, HolderMemory> = {};
  for (const [key, entry] of Object.entries(memory)) {
    const next: HolderMemory = {};
    const open = entry.below?.toldTo !== undefined;
    if (entry.below && (open || at - Date.parse(entry.below.at) <= windows.reopenWindowMs))
      next.below = entry.below;
    if (entry.lastCrossing && at - Date.parse(entry.lastCrossing) <= windows.flapWindowMs)
      next.lastCrossing = entry.lastCrossing;
    if (entry.hold && at < Date.parse(entry.hold.until)) next.hold = entry.hold;
    setMemory(kept, key, next);
  }
  return kept;
}

function setMemory(memory: Record<string, HolderMemory>, key: string, entry: HolderMemory): void {
  if (Object.keys(entry).length === 0) delete memory[key];
  // defineProperty: a holder keyed `__proto__` must be an own entry, not the prototype.
  else
    Object.defineProperty(memory, key, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true,
    });
}

/** Keys in code-unit order, so a snapshot's JSON never depends on event order. */
function sortedMemory(memory: Record<string, HolderMemory>): Record<string, HolderMemory> {
  const sorted: Record<string, HolderMemory> = {};
  for (const key of Object.keys(memory).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    setMemory(sorted, key, memory[key] ?? {});
  return sorted;
}
