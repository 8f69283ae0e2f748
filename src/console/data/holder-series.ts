import { holderKey } from '../../positions/holder-key.js';
import type { PositionEvent, Snapshot } from '../../positions/types.js';
import type { IssuerPosition } from '../../upstream/schemas.js';

/** One step of a disclosed position: `v` % of issued capital from `t` (epoch ms) on. */
export interface SeriesPoint {
  t: number;
  v: number;
}

/** One line of a chart: a holder's disclosed position over time (or, on a holder's page, one issuer). */
export interface Series {
  key: string;
  label: string;
  href?: string;
  points: SeriesPoint[];
  /** Where the last step ends: now while the position is active, else the last point (a close at 0). */
  end: number;
  /** The current value, or null when the position is no longer active. */
  current: number | null;
}

const DAY_MS = 86_400_000;

/** `2025-03-14` → epoch ms of its UTC midnight; NaN when it is not a date. */
export function dayMs(date: string): number {
  return Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
}

/** Collects disclosures per key; a later report of the same day replaces an earlier one. */
class SeriesBuilder {
  readonly #byKey = new Map<string, { label: string; points: Map<number, number>; closedAt: number }>();

  add(key: string, label: string, t: number, v: number): void {
    if (!Number.isFinite(t) || !Number.isFinite(v)) return;
    let entry = this.#byKey.get(key);
    if (!entry) {
      entry = { label, points: new Map(), closedAt: Number.NEGATIVE_INFINITY };
      this.#byKey.set(key, entry);
    }
    entry.label = label;
    entry.points.set(t, v);
  }

  close(key: string, label: string, t: number): void {
    this.add(key, label, t, 0);
    const entry = this.#byKey.get(key);
    if (entry) entry.closedAt = Math.max(entry.closedAt, t);
  }

  build(active: ReadonlyMap<string, number>, now: number, href?: (key: string) => string): Series[] {
    return [...this.#byKey].map(([key, entry]) => {
      const points = [...entry.points].map(([t, v]) => ({ t, v })).sort((a, b) => a.t - b.t);
      const current = active.get(key) ?? null;
      const last = points.at(-1)?.t ?? now;
      return {
        key,
        label: entry.label,
        ...(href ? { href: href(key) } : {}),
        points,
        end: current !== null ? Math.max(now, last) : last,
        current,
      };
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
  now: number;
}

function addEvent(builder: SeriesBuilder, key: string, label: string, event: PositionEvent): void {
  if (event.previous) builder.add(key, label, dayMs(event.previous.date), event.previous.value);
  if (event.current) builder.add(key, label, dayMs(event.current.date), event.current.value);
  if (event.kind === 'closed') {
    if (event.final) builder.add(key, label, dayMs(event.final.date), event.final.value);
    // Below the public threshold from the day it was seen gone: the line steps to 0 there.
    builder.close(key, label, Math.floor(Date.parse(event.detectedAt) / DAY_MS) * DAY_MS);
  }
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
  return builder.build(active, input.now, href);
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
  now: number,
  href?: (key: string) => string,
): Series[] {
  const builder = new SeriesBuilder();
  const oldestFirst = [...events].sort((a, b) => Date.parse(a.detectedAt) - Date.parse(b.detectedAt));
  for (const event of oldestFirst) addEvent(builder, event.issuer.id, event.issuer.name, event);
  for (const [key, p] of active) builder.add(key, p.label, dayMs(p.date), p.value);
  const values = new Map([...active].map(([key, p]) => [key, p.value]));
  return builder.build(values, now, href);
}
