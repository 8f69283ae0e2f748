import type { ChannelConfig } from '../../config/schema.js';
import { eventId } from '../../positions/event-id.js';
import { holderKey } from '../../positions/holder-key.js';
import type { PositionEvent } from '../../positions/types.js';
import { type DeliveryPlan, type Mute, planDelivery } from '../../routing/index.js';
import type { RouteOptions, RouteVerdict } from '../../routing/route.js';
import type { RegimeDrop } from '../registers/register-diff.js';

/** Who a regime event is about: the named holders as a whole, never one of them. */
export const NAMED_HOLDERS = 'Named holders';

/** Where and when a regime drop was read. */
export interface RegimeEventContext {
  /** `sources[].name`; absent for the upstream API. */
  source?: string | undefined;
  detectedAt: string;
  /** The day the register stopped naming the holders: the file's publication date, else the read's day. */
  date: string;
}

/**
 * A regime drop as one event: "Named holders no longer published: 1.23% → not published". It is an event
 * like an aggregate's (its own facts kind, never `closed`, never read against 0.5%), so it is logged,
 * routed to immediate channels and digests alike, and committed with the issuer's silent snapshot in one
 * atomic write. Its id derives from the snapshot it moves from: a replay of the read dedupes.
 */
export function regimeEvent(drop: RegimeDrop, ctx: RegimeEventContext): PositionEvent {
  const lastDate = drop.closes.reduce((latest, e) => maxDate(latest, e.previous?.date), '');
  const previous = { value: drop.lastNamedSum, date: lastDate || ctx.date };
  const current = { value: 0, date: ctx.date };
  const key = holderKey(NAMED_HOLDERS);
  const from = drop.silent.previous?.polledAt ?? 'first';
  return {
    id: eventId({
      issuerId: ctx.source === undefined ? drop.key : `${ctx.source}:${drop.key}`,
      holderKey: key,
      from,
      kind: 'decreased',
      previous,
      current,
    }),
    kind: 'decreased',
    issuer: { id: drop.key, name: drop.name },
    holderKey: key,
    holder: NAMED_HOLDERS,
    previous,
    current,
    delta: -drop.lastNamedSum,
    thresholdsCrossed: [],
    issuerTotal: { before: drop.lastNamedSum, after: 0 },
    detectedAt: ctx.detectedAt,
    ...(ctx.source === undefined ? {} : { source: ctx.source }),
    aggregate: {
      kind: 'named-holders-ended',
      namedPercent: drop.lastNamedSum,
      namedHolders: drop.closes.length,
    },
  };
}

/**
 * Where the regime event goes: wherever the closes it stands for would have gone (each channel's
 * filters, mutes, quiet hours and digests decide, as for the closes), once per channel and period;
 * except where the event itself is muted (a mute of "Named holders", the name its message shows).
 * Pure.
 */
export function planRegimeEvent(
  drop: RegimeDrop,
  event: PositionEvent,
  routing: { channels: readonly ChannelConfig[]; mutes: readonly Mute[]; now: Date; options: RouteOptions },
): DeliveryPlan {
  const closes = planDelivery(drop.closes, routing.channels, routing.mutes, routing.now, routing.options);
  const own = planDelivery([event], routing.channels, routing.mutes, routing.now, routing.options);
  const muted = new Map(
    (own.logged[0]?.routes ?? []).filter((r) => r.verdict === 'muted').map((r) => [r.channel, r]),
  );
  const targets = new Map<string, DeliveryPlan['targets'][number]>();
  for (const target of closes.targets) {
    if (muted.has(target.channel)) continue;
    targets.set(`${target.type}|${target.channel}|${target.readyAt ?? ''}`, { ...target, events: [event] });
  }
  const routes = routing.channels.map(
    (channel) => muted.get(channel.name) ?? verdictOf(channel.name, closes.logged),
  );
  return { targets: [...targets.values()], suppressed: [], logged: [{ event, routes }] };
}

/** A channel's verdict on the drop: told if any close would have been, else why the first was not. */
function verdictOf(channel: string, logged: DeliveryPlan['logged']): RouteVerdict {
  const verdicts = logged.flatMap(({ routes }) => routes.filter((route) => route.channel === channel));
  const told = verdicts.find((v) => v.verdict === 'send' || v.verdict === 'defer' || v.verdict === 'stage');
  return told ?? verdicts[0] ?? { channel, verdict: 'skip', reason: 'no close to route' };
}

function maxDate(a: string, b: string | undefined): string {
  return b !== undefined && b > a ? b : a;
}

/**
 * An issuer's aggregate events in the read where its register stopped naming holders, less the move of
 * the interest "below the public threshold": with no holder named it jumps by the whole named sum, an
 * artefact of the boundary that the regime event already tells.
 */
export function withoutBoundaryArtefacts(events: readonly PositionEvent[]): PositionEvent[] {
  return events.filter((event) => event.aggregate?.kind !== 'below-threshold-moved');
}
