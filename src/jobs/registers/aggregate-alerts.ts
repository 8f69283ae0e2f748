import { eventId } from '../../positions/event-id.js';
import { holderKey } from '../../positions/holder-key.js';
import { round4 } from '../../positions/round.js';
import type { AggregateFacts, Disclosure, EventKind, PositionEvent } from '../../positions/types.js';
import type { AggregateEvent, AggregateIssuerRef } from '../../sources/aggregate-events.js';

/** Where and when a register read's aggregate events were observed. */
export interface AggregateAlertContext {
  /** `sources[].name`. */
  source: string;
  /** The occurrence of the stored read the diff moved from: part of every id, so a replay dedupes. */
  from: string;
  detectedAt: string;
  /** The date scope events carry: the list's publication date, else the day of the read. */
  listedOn: string;
}

/** "Aggregate of positions from 0.1%": who an aggregate event is about, always with its threshold. */
export function aggregateHolder(thresholdPercent: number): string {
  return `Aggregate of positions from ${round4(thresholdPercent)}%`;
}

/** "Below the public threshold (aggregate from 0.1% minus named positions)". */
export function belowThresholdHolder(thresholdPercent: number): string {
  return `Below the public threshold (aggregate from ${round4(thresholdPercent)}% minus named positions)`;
}

/** The holder a scope list's events are told under. */
export const SCOPE_HOLDER = 'Reportable Shares List';

/**
 * The aggregate events of one read as events every channel already tells: the aggregate is the "holder",
 * its values the disclosures, and `aggregate` says what happened. A change that crossed configured
 * levels is one `aggregate-crossed` event carrying the levels (never a second message beside the
 * change). Pure; ids derive from the issuer, the kind, the values and the read moved from.
 */
export function aggregateAlerts(
  events: readonly AggregateEvent[],
  ctx: AggregateAlertContext,
): PositionEvent[] {
  const crossings = new Map<string, { levels: number[]; direction: 'up' | 'down' }>();
  for (const event of events) {
    if (event.kind !== 'aggregate-crossed') continue;
    const seen = crossings.get(event.issuer.key) ?? { levels: [], direction: event.direction };
    seen.levels.push(event.level);
    crossings.set(event.issuer.key, seen);
  }
  return events.flatMap((event): PositionEvent[] => {
    if (event.kind === 'aggregate-crossed') return [];
    const alert = alertOf(event, crossings.get(event.issuer.key), ctx);
    return alert === undefined ? [] : [alert];
  });
}

interface AlertShape {
  holder: string;
  facts: AggregateFacts;
  previous: Disclosure | null;
  current: Disclosure | null;
  crossed?: number[];
}

function alertOf(
  event: Exclude<AggregateEvent, { kind: 'aggregate-crossed' }>,
  crossing: { levels: number[]; direction: 'up' | 'down' } | undefined,
  ctx: AggregateAlertContext,
): PositionEvent | undefined {
  const shape = shapeOf(event, crossing, ctx);
  const kind = kindOf(shape.previous, shape.current);
  const key = holderKey(shape.holder);
  const issuerId = `${ctx.source}:${event.issuer.key}`;
  const from = shape.previous?.value ?? 0;
  const to = shape.current?.value ?? 0;
  return {
    id: eventId({
      issuerId,
      holderKey: key,
      from: ctx.from,
      kind,
      previous: shape.previous,
      current: shape.current,
    }),
    kind,
    issuer: issuerOf(event.issuer),
    holderKey: key,
    holder: shape.holder,
    previous: shape.previous,
    current: shape.current,
    delta: round4(to - from),
    thresholdsCrossed: shape.crossed ?? [],
    issuerTotal: { before: from, after: to },
    detectedAt: ctx.detectedAt,
    source: ctx.source,
    aggregate: shape.facts,
  };
}

function shapeOf(
  event: Exclude<AggregateEvent, { kind: 'aggregate-crossed' }>,
  crossing: { levels: number[]; direction: 'up' | 'down' } | undefined,
  ctx: AggregateAlertContext,
): AlertShape {
  switch (event.kind) {
    case 'below-threshold-moved':
      return {
        holder: belowThresholdHolder(event.thresholdPercent),
        facts: {
          kind: event.kind,
          thresholdPercent: event.thresholdPercent,
          aggregatePercent: event.aggregatePercent,
          namedPercent: event.namedPercent,
        },
        previous: disclosed(event.fromPercent, ctx.listedOn),
        current: disclosed(event.toPercent, ctx.listedOn),
      };
    case 'scope-added':
    case 'scope-removed':
      // On the list or off it: a scope event has no value of its own, only the day the list said so.
      return {
        holder: SCOPE_HOLDER,
        facts: { kind: event.kind },
        previous: event.kind === 'scope-added' ? null : disclosed(0, ctx.listedOn),
        current: disclosed(0, ctx.listedOn),
      };
    default:
      return aggregateShape(event, crossing);
  }
}

const disclosed = (percent: number, date: string): Disclosure => ({ value: percent, date });

/** An issuer aggregate's own events: entered, ended, changed (or crossed a level), revised. */
function aggregateShape(
  event: Extract<
    AggregateEvent,
    { kind: 'aggregate-entered' | 'aggregate-ended' | 'aggregate-changed' | 'aggregate-revised' }
  >,
  crossing: { levels: number[]; direction: 'up' | 'down' } | undefined,
): AlertShape {
  const holder = aggregateHolder(event.thresholdPercent);
  switch (event.kind) {
    case 'aggregate-entered':
      return {
        holder,
        facts: { kind: event.kind, thresholdPercent: event.thresholdPercent },
        previous: null,
        current: disclosed(event.to.percent, event.to.date),
      };
    case 'aggregate-ended':
      // No longer published: every position counted is now under the threshold, told as reaching 0.
      return {
        holder,
        facts: { kind: event.kind, thresholdPercent: event.thresholdPercent },
        previous: disclosed(event.from.percent, event.from.date),
        current: disclosed(0, event.from.date),
      };
    case 'aggregate-changed':
      return {
        holder,
        facts: {
          kind: crossing ? 'aggregate-crossed' : 'aggregate-changed',
          thresholdPercent: event.thresholdPercent,
          ...(crossing ? { direction: crossing.direction } : {}),
        },
        previous: disclosed(event.from.percent, event.from.date),
        current: disclosed(event.to.percent, event.to.date),
        crossed: [...(crossing?.levels ?? [])].sort((a, b) => a - b),
      };
    case 'aggregate-revised':
      return {
        holder: `${holder}, revised for ${event.date}`,
        facts: { kind: event.kind, thresholdPercent: event.thresholdPercent, revisedDate: event.date },
        previous: disclosed(event.fromPercent, event.date),
        current: disclosed(event.toPercent, event.date),
      };
  }
}

// Never `closed`: that kind reads against the 0.5% disclosure threshold, which an aggregate is not.
function kindOf(previous: Disclosure | null, current: Disclosure | null): EventKind {
  if (previous === null) return 'opened';
  return (current?.value ?? 0) > previous.value ? 'increased' : 'decreased';
}

function issuerOf(ref: AggregateIssuerRef): { id: string; name: string } {
  return { id: ref.key, name: ref.name };
}
