import type { IssuerPosition } from '../upstream/schemas.js';
import { collapseRows, compareText } from './collapse.js';
import { eventId, snapshotOccurrence } from './event-id.js';
import { round4 } from './round.js';
import {
  type Disclosure,
  EVENT_KINDS,
  type EventKind,
  type HeldPosition,
  type PositionEvent,
  type Snapshot,
  type WatchRecord,
} from './types.js';

export { collapseRows } from './collapse.js';

/** Everything the diff needs: the previous snapshot (null on first sight) and the current active rows. */
export interface DiffInput {
  previous: Snapshot | null;
  issuer: { id: string; name: string };
  /** The validated `status=active` rows; an empty list is real and closes every previous position. */
  rows: IssuerPosition[];
  lastUpdated: string | null;
  now: Date;
  thresholds: number[];
  onFirstSeen: 'baseline' | 'alert';
}

/** The events of one poll and the snapshot to commit after them. */
export interface DiffResult {
  events: PositionEvent[];
  next: Snapshot;
  /** True when this was a silent first observation (`onFirstSeen: baseline`). */
  baseline: boolean;
}

/** Shared by every event of one diff. */
interface DiffContext {
  issuer: { id: string; name: string };
  /** The occurrence id of the snapshot this diff moves from. */
  from: string;
  thresholds: number[];
  issuerTotal: { before: number; after: number };
  detectedAt: string;
}

/** The pure diff of DESIGN.md "Events": previous snapshot and current rows in, events and next snapshot out. */
export function diffPositions(input: DiffInput): DiffResult {
  const current = collapseRows(input.rows);
  const detectedAt = input.now.toISOString();
  if (input.previous === null && input.onFirstSeen === 'baseline')
    return { events: [], next: nextSnapshot(input, current, detectedAt, false), baseline: true };

  const previous = input.previous?.positions ?? {};
  const context: DiffContext = {
    issuer: { id: input.issuer.id, name: input.issuer.name },
    from: snapshotOccurrence(input.previous),
    thresholds: [...new Set(input.thresholds)].sort((a, b) => a - b),
    issuerTotal: { before: totalShort(previous), after: totalShort(current) },
    detectedAt,
  };
  const keys = [...new Set([...Object.keys(previous), ...Object.keys(current)])].sort(compareText);
  const events: PositionEvent[] = [];
  for (const key of keys) {
    const event = diffHolder(key, own(previous, key), own(current, key), context);
    if (event !== null) events.push(event);
  }
  events.sort((a, b) => compareText(a.holderKey, b.holderKey) || kindRank(a.kind) - kindRank(b.kind));
  return { events, next: nextSnapshot(input, current, detectedAt, events.length > 0), baseline: false };
}

/** The snapshot after this poll; the watch record counts it, the history summary carries over. */
function nextSnapshot(
  input: DiffInput,
  positions: Record<string, HeldPosition>,
  polledAt: string,
  found: boolean,
): Snapshot {
  return {
    issuerId: input.issuer.id,
    issuerName: input.issuer.name,
    positions,
    lastUpdated: input.lastUpdated,
    polledAt,
    generation: (input.previous?.generation ?? 0) + 1,
    watch: watchAfter(input.previous, found, polledAt),
    ...(input.previous?.history ? { history: input.previous.history } : {}),
  };
}

/**
 * The watch record after this poll. It starts at the first snapshot (a first sight's events are the
 * issuer's holders, not its changes), or for a snapshot written before the record at that snapshot's
 * poll; each later poll that found events counts one change.
 */
function watchAfter(previous: Snapshot | null, found: boolean, at: string): WatchRecord {
  if (previous === null) return { since: at, changes: 0 };
  const watch = previous.watch ?? { since: previous.polledAt, changes: 0 };
  return { since: watch.since, changes: watch.changes + (found ? 1 : 0) };
}

/** The event for one holder key, or null when its rounded value did not change. */
function diffHolder(
  key: string,
  before: HeldPosition | undefined,
  after: HeldPosition | undefined,
  context: DiffContext,
): PositionEvent | null {
  const previous = before === undefined ? null : disclosure(before);
  const current = after === undefined ? null : disclosure(after);
  const kind = kindOf(previous, current);
  if (kind === null) return null;
  const from = previous?.value ?? 0;
  const to = current?.value ?? 0;
  return {
    id: eventId({ issuerId: context.issuer.id, holderKey: key, from: context.from, kind, previous, current }),
    kind,
    issuer: { ...context.issuer },
    holderKey: key,
    // For `closed` the only name we have is the previous one.
    holder: after?.holder ?? before?.holder ?? key,
    previous,
    current,
    delta: round4(to - from),
    thresholdsCrossed: crossed(context.thresholds, from, to),
    issuerTotal: { ...context.issuerTotal },
    detectedAt: context.detectedAt,
  };
}

function kindOf(previous: Disclosure | null, current: Disclosure | null): EventKind | null {
  if (previous === null) return current === null ? null : 'opened';
  if (current === null) return 'closed';
  if (current.value === previous.value) return null;
  return current.value > previous.value ? 'increased' : 'decreased';
}

/** Thresholds t with from < t <= to (up) or to < t <= from (down), ascending. */
export function crossed(thresholds: readonly number[], from: number, to: number): number[] {
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  return thresholds.filter((t) => low < t && t <= high);
}

function disclosure(position: HeldPosition): Disclosure {
  // Snapshots written by this module are already rounded; rounding again guards older ones.
  return { value: round4(position.value), date: position.date };
}

/**
 * An issuer's aggregate disclosed short: the sum of the rounded values of one position per holder key,
 * in key order so float addition never depends on row order. What events carry as `issuerTotal`.
 */
export function totalShort(positions: Record<string, HeldPosition>): number {
  let sum = 0;
  for (const key of Object.keys(positions).sort(compareText)) sum += round4(own(positions, key)?.value ?? 0);
  return round4(sum);
}

/** Own properties only: a holder keyed `constructor` must not find Object.prototype's. */
function own(positions: Record<string, HeldPosition>, key: string): HeldPosition | undefined {
  return Object.hasOwn(positions, key) ? positions[key] : undefined;
}

function kindRank(kind: EventKind): number {
  return EVENT_KINDS.indexOf(kind);
}
