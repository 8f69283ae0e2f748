import type { Inflight, Parked } from '../../state/outbox.js';
import type { LoggedEvent } from '../../state/poll-commit.js';
import type { SentRecord } from './delivery-log.js';

/** What became of one event on one channel. */
export type ChannelOutcome =
  | { state: 'sent'; at: number; attempts: number; deliveryId: string }
  | { state: 'parked'; at: number; attempts: number; deliveryId: string; error: string | null }
  | { state: 'sending'; attempts: number; deliveryId: string; error: string | null }
  /** Routed to the channel and not sent yet (waiting, deferred by quiet hours, or staged for a digest). */
  | { state: 'queued' };

/** One channel's line under an event: the routing verdict and reason, and, when routed, the outcome. */
export interface EventChannelLine {
  channel: string;
  verdict: string;
  reason: string;
  outcome: ChannelOutcome | null;
}

/** Where each event went, as the outboxes and the deliveries stream tell it. */
export interface DeliveryIndex {
  sent: readonly SentRecord[];
  parked: readonly Parked[];
  inflight: ReadonlyArray<{ channel: string; inflight: Inflight }>;
}

type Known = Map<string, ChannelOutcome>;

function note(index: Map<string, Known>, eventId: string, channel: string, outcome: ChannelOutcome): void {
  let known = index.get(eventId);
  if (!known) {
    known = new Map();
    index.set(eventId, known);
  }
  // The first fact recorded wins: sent before parked before in flight, newest send first.
  if (!known.has(channel)) known.set(channel, outcome);
}

/** Indexes the deliveries by event id and channel, once per page. */
export function indexOutcomes(deliveries: DeliveryIndex): Map<string, Known> {
  const index = new Map<string, Known>();
  for (const s of deliveries.sent) {
    const outcome = { state: 'sent', at: s.at, attempts: s.attempts, deliveryId: s.deliveryId } as const;
    for (const id of s.eventIds) note(index, id, s.channel, outcome);
  }
  for (const p of deliveries.parked) {
    const { deliveryId, attempts, parkedAt } = p;
    const outcome = {
      state: 'parked',
      at: parkedAt,
      attempts,
      deliveryId,
      error: p.lastError ?? null,
    } as const;
    for (const id of p.eventIds) note(index, id, p.channel, outcome);
  }
  for (const { channel, inflight } of deliveries.inflight) {
    const { deliveryId, attempts } = inflight;
    const outcome = { state: 'sending', attempts, deliveryId, error: inflight.lastError ?? null } as const;
    for (const id of inflight.eventIds) note(index, id, channel, outcome);
  }
  return index;
}

/** One event's lines, one per channel its routing verdicts name, in the order they were decided. */
export function eventLines(logged: LoggedEvent, index: Map<string, Known>): EventChannelLine[] {
  const known = index.get(logged.event.id);
  return logged.routes.map((route) => {
    const routed = route.verdict === 'send' || route.verdict === 'defer' || route.verdict === 'stage';
    return {
      channel: route.channel,
      verdict: route.verdict,
      reason: route.reason,
      outcome: routed ? (known?.get(route.channel) ?? { state: 'queued' }) : null,
    };
  });
}
