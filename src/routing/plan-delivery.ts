import type { ChannelConfig } from '../config/schema.js';
import { round4 } from '../positions/round.js';
import type { HiddenChanges, PositionEvent } from '../positions/types.js';
import type { Mute } from './mutes.js';
import { type RouteOptions, type RouteVerdict, routeEvents } from './route.js';

/** Where one poll's events go: per channel outbox or digest, with the verdicts the event log keeps. */
export interface DeliveryPlan {
  targets: Array<{
    type: 'outbox' | 'digest';
    channel: string;
    readyAt: number | null;
    events: PositionEvent[];
  }>;
  suppressed: Array<{ channel: string; count: number }>;
  /** Each event with every channel's verdict, in event order. */
  logged: Array<{ event: PositionEvent; routes: RouteVerdict[] }>;
}

/**
 * Decides, once and at poll time, where each event goes. The result is written with the snapshot, so a
 * replay or a later mute or filter change never re-routes what was decided. Pure.
 */
export function planDelivery(
  events: readonly PositionEvent[],
  channels: readonly ChannelConfig[],
  mutes: readonly Mute[],
  now: Date,
  options?: RouteOptions,
): DeliveryPlan {
  // One decision per (event, channel): the targets and the verdicts the event log keeps both come from it.
  const { groups, suppressed, verdicts } = routeEvents(events, channels, mutes, now, options);
  const targets = new Map<string, DeliveryPlan['targets'][number]>();
  for (const group of groups) {
    const { disposition } = group;
    const type = disposition.action === 'stage' ? 'digest' : 'outbox';
    const channel = disposition.action === 'stage' ? disposition.digest : group.channel;
    const readyAt = disposition.action === 'defer' ? disposition.until.getTime() : null;
    const key = `${type}|${channel}|${readyAt ?? ''}`;
    const target = targets.get(key) ?? { type, channel, readyAt, events: [] };
    // A folded event may reach one digest twice (folded, and through its own filter): the store dedupes too.
    for (const event of group.events)
      if (!target.events.some((e) => e.id === event.id)) target.events.push(event);
    targets.set(key, target);
  }
  const counts = new Map<string, number>();
  for (const s of suppressed) counts.set(s.channel, (counts.get(s.channel) ?? 0) + 1);
  return {
    targets: [...targets.values()].map((target) => withHidden(target, events)),
    suppressed: [...counts].map(([channel, count]) => ({ channel, count })),
    logged: events.map((event, index) => ({ event, routes: verdicts[index] ?? [] })),
  };
}

/**
 * The target's events, each carrying what of its issuer's changes in this poll the message will not
 * show (the channel's filter, a mute, a confirmed close, a flap held for later): the issuer total moves
 * by all of them, and the message must say so rather than let the rows seem not to add up.
 */
function withHidden(
  target: DeliveryPlan['targets'][number],
  events: readonly PositionEvent[],
): DeliveryPlan['targets'][number] {
  const shown = new Set(target.events.map((event) => event.id));
  const hiddenByIssuer = new Map<string, HiddenChanges>();
  for (const event of events) {
    // Aggregates are not part of the named total a hidden change is counted against.
    if (shown.has(event.id) || event.aggregate) continue;
    const sum = hiddenByIssuer.get(event.issuer.id) ?? { count: 0, delta: 0 };
    hiddenByIssuer.set(event.issuer.id, { count: sum.count + 1, delta: round4(sum.delta + event.delta) });
  }
  return {
    ...target,
    events: target.events.map((event) => {
      const hidden = hiddenByIssuer.get(event.issuer.id);
      return hidden ? { ...event, hidden } : event;
    }),
  };
}
