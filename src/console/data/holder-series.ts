import { holderKey } from '../../positions/holder-key.js';
import type { PositionEvent, Snapshot } from '../../positions/types.js';
import type { IssuerPosition } from '../../upstream/schemas.js';

/**
 * One disclosure: `v` % of issued capital from `t` (epoch ms, the disclosure date) on. `last` marks the
 * last disclosure before the position left the list: the line ends there instead of falling to 0.
 */
export interface SeriesPoint {
  t: number;
  v: number;
  last?: boolean;
}

/** One line of a chart: a holder's disclosed position over time (or, on a holder's page, one issuer). */
export interface Series {
  key: string;
  label: string;
  href?: string;
  /** Disclosures only, oldest first, each at its disclosure date (never the instant a change was seen). */
  points: SeriesPoint[];
  /** The current value, or null when the position is off the list (its last point is then `last`). */
  current: number | null;
}

/** `2025-03-14` → epoch ms of its UTC midnight; NaN when it is not a date. */
export function dayMs(date: string): number {
  return Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
}

/** `epoch ms` → `2025-03-14`, the register's date of a point. */
export function dayOf(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/** The series' last disclosure (its value now, or the last listed value of a closed one). */
export function lastPoint(series: Series): SeriesPoint | undefined {
  return series.points.at(-1);
}

/** Collects disclosures per key; a later report of the same day replaces an earlier one. */
export class SeriesBuilder {
  readonly #byKey = new Map<string, { label: string; points: Map<number, number>; lastOn: Set<number> }>();

  add(key: string, label: string, t: number, v: number): void {
    if (!Number.isFinite(t) || !Number.isFinite(v)) return;
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = { label, points: new Map(), lastOn: new Set() };
      this.#byKey.set(key, entry);
    }
    entry.label = label;
    entry.points.set(t, v);
  }

  /** The position left the list after its disclosure at `t` (of value `v`). */
  leave(key: string, label: string, t: number, v: number): void {
    this.add(key, label, t, v);
    this.#byKey.get(key)?.lastOn.add(t);
  }

  build(active: ReadonlyMap<string, number>, href?: (key: string) => string): Series[] {
    return [...this.#byKey].map(([key, entry]) => {
      const current = active.get(key) ?? null;
      const points = [...entry.points]
        .sort(([a], [b]) => a - b)
        .map(([t, v], i, all): SeriesPoint => {
          // The newest point ends the line unless the position is listed now; an older one where it left.
          const final = i === all.length - 1;
          const last = final ? current === null : entry.lastOn.has(t);
          return last ? { t, v, last } : { t, v };
        });
      return { key, label: entry.label, ...(href ? { href: href(key) } : {}), points, current };
    });
  }
}

/** What one chart is built from: logged events (oldest first or not), the snapshot, and any full history. */
export interface HistoryInput {
  events: readonly PositionEvent[];
  /** Active positions now, keyed by the same key the series use. */
  active: ReadonlyMap<string, { label: string; value: number; date: string }>;
  /** `status=all` rows, when fetched. */
  history?: readonly IssuerPosition[];
}

function addEvent(builder: SeriesBuilder, key: string, label: string, event: PositionEvent): void {
  if (event.previous) builder.add(key, label, dayMs(event.previous.date), event.previous.value);
  if (event.current) builder.add(key, label, dayMs(event.current.date), event.current.value);
  if (event.kind !== 'closed') return;
  // It left the list after its last disclosure: the line ends there (not a fall to 0 on the day it was seen gone).
  const last = event.final ?? event.previous;
  if (last) builder.leave(key, label, dayMs(last.date), last.value);
}

/**
 * The chart lines of one issuer, one per holder: each disclosure holds until the next (a step line),
 * from the event log, the snapshot's active positions and, when asked for, the `status=all` history.
 */
export function issuerSeries(input: HistoryInput, href?: (key: string) => string): Series[] {
  const builder = new SeriesBuilder();
  for (const row of input.history ?? []) {
    builder.add(holderKey(row.position_holder), row.position_holder, dayMs(row.date), row.value);
  }
  const oldestFirst = [...input.events].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
  for (const event of oldestFirst) addEvent(builder, event.holderKey, event.holder, event);
  for (const [key, p] of input.active) builder.add(key, p.label, dayMs(p.date), p.value);
  const active = new Map([...input.active].map(([key, p]) => [key, p.value]));
  return builder.build(active, href);
}

/** The active positions of a snapshot keyed by holder key. */
export function activeOf(
  snapshot: Snapshot | null,
): Map<string, { label: string; value: number; date: string }> {
  return new Map(
    Object.entries(snapshot?.positions ?? {}).map(([key, p]) => [
      key,
      { label: p.holder, value: p.value, date: p.date },
    ]),
  );
}

/**
 * The chart lines of one holder across issuers, one per issuer: the same steps, keyed by issuer id
 * (events of the holder from the global log, and its active positions in each watched issuer).
 */
export function holderSeries(
  events: readonly PositionEvent[],
  active: ReadonlyMap<string, { label: string; value: number; date: string }>,
  href?: (key: string) => string,
): Series[] {
  const builder = new SeriesBuilder();
  const oldestFirst = [...events].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
  for (const event of oldestFirst) addEvent(builder, event.issuer.id, event.issuer.name, event);
  for (const [key, p] of active) builder.add(key, p.label, dayMs(p.date), p.value);
  const values = new Map([...active].map(([key, p]) => [key, p.value]));
  return builder.build(values, href);
}
