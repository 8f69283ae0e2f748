import { messageForGroups } from '../channels/coalesced-message.js';
import { issuerGroupKey } from '../channels/event-story.js';
import { messageEvents } from '../channels/message-events.js';
import type { IssuerEvents, Message } from '../channels/types.js';
import type { PositionEvent } from '../positions/types.js';
import { eventsDeliveryId } from '../state/delivery-ids.js';
import type { Inflight, OutboxItem } from '../state/outbox.js';

/** The next message of a channel, built from its ready outbox items. */
export interface NextMessage {
  deliveryId: string;
  message: Message;
  itemIds: string[];
  eventIds: string[];
  digestBatch?: string;
}

/** The in-flight record of a composed message, claimed at `now` (epoch ms), with what the caller adds. */
export function inflightOf(next: NextMessage, now: number, extra: Partial<Inflight> = {}): Inflight {
  return {
    deliveryId: next.deliveryId,
    message: next.message,
    eventIds: next.eventIds,
    attempts: 0,
    partsSent: 0,
    nextAttemptAt: now,
    claimedAt: now,
    ...(next.digestBatch ? { digestBatch: next.digestBatch } : {}),
    ...extra,
  };
}

/** How many of the leading issuer groups one message carries: the channel's own rule (Slack's limits…). */
export type Coalesce = (groups: readonly IssuerEvents[]) => number;

/**
 * The next message from the ready items, oldest first. A ready-made message or a digest goes alone.
 * Events coalesce: every ready event is grouped by issuer (in order of first arrival), and the message
 * carries as many leading groups as the channel says fit in one message, so a lone event goes out alone
 * and a backlog drains in as few messages as the channel's limits allow. Coalescing starts only when
 * more issuers wait than the channel may send messages in one second (`perSecond`): below that, one
 * message per issuer keeps up. Pure; `digestEvents` is only the events of a sealed digest.
 */
export function composeNext(
  channel: string,
  items: readonly OutboxItem[],
  coalesce: Coalesce,
  perSecond: number,
  digestEvents: readonly PositionEvent[] = [],
): NextMessage | undefined {
  const first = items[0];
  if (!first) return undefined;
  if (first.kind === 'message') {
    const { deliveryId, message, digestBatch } = first;
    // A parked message sent again keeps naming its events, so the log still joins them to it.
    const eventIds = messageEvents(message).map((e) => e.id);
    return { deliveryId, message, itemIds: [first.id], eventIds, ...(digestBatch ? { digestBatch } : {}) };
  }
  if (first.kind === 'digest') {
    const events = [...digestEvents].sort((a, b) => a.detectedAt.localeCompare(b.detectedAt));
    return {
      deliveryId: first.batchId,
      message: { type: 'digest', period: first.period, events },
      itemIds: [first.id],
      eventIds: events.map((e) => e.id),
      digestBatch: first.batchId,
    };
  }
  const groups = groupByIssuer(items);
  const backlog = groups.length > Math.max(1, Math.floor(perSecond));
  const taken = groups.slice(0, backlog ? Math.min(groups.length, Math.max(1, coalesce(groups))) : 1);
  const events = taken.flatMap((group) => group.events);
  const eventIds = events.map((event) => event.id);
  // Built exactly as the channel measured it in `coalesce`: one issuer is a plain events message.
  const message = messageForGroups(taken);
  return { deliveryId: eventsDeliveryId(channel, eventIds), message, itemIds: eventIds, eventIds };
}

/**
 * Ready event items grouped per issuer and source, groups in order of their first event, events in
 * arrival order. Two registers listing one ISIN (a current file and its history) are two views of the
 * issuer, not one sequence: each goes in its own group, with its own total.
 */
function groupByIssuer(items: readonly OutboxItem[]): IssuerEvents[] {
  const groups = new Map<string, IssuerEvents>();
  for (const item of items) {
    if (item.kind !== 'event') continue;
    const { event } = item;
    const group = groups.get(issuerGroupKey(event)) ?? { issuer: event.issuer, events: [] };
    group.events.push(event);
    groups.set(issuerGroupKey(event), group);
  }
  return [...groups.values()];
}
