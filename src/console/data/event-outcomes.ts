import type { Inflight, Parked } from '../../state/outbox.js';
import type { LoggedEvent } from '../../state/poll-commit.js';
import type { RecordedMessage } from './record-messages.js';

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

/**
 * Where each event went: the record of sent messages (what receivers took, and every attempt; the same
 * rows `deliveries export` writes), and the outboxes for what is parked or being sent now.
 */
export interface DeliveryIndex {
  /** The record's messages, most recently tried first. */
  recorded: readonly RecordedMessage[];
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

const messageKey = (channel: string, deliveryId: string) => `${channel}\u0000${deliveryId}`;

/** Indexes the deliveries by event id and channel, once per page. */
export function indexOutcomes(deliveries: DeliveryIndex): Map<string, Known> {
  const index = new Map<string, Known>();
  // Attempts as the record counts them: a parked message sent again keeps its id, and its attempts add up.
  const attempts = new Map(
    deliveries.recorded.map((m) => [messageKey(m.channel, m.deliveryId), m.attempts.length]),
  );
  const attemptsOf = (channel: string, deliveryId: string, outbox: number) =>
    attempts.get(messageKey(channel, deliveryId)) ?? outbox;
  for (const m of deliveries.recorded) {
    if (m.acceptedAt === null) continue;
    const outcome = {
      state: 'sent',
      at: m.acceptedAt,
      attempts: m.attempts.length,
      deliveryId: m.deliveryId,
    } as const;
    for (const id of m.eventIds) note(index, id, m.channel, outcome);
  }
  for (const p of deliveries.parked) {
    const { deliveryId, parkedAt } = p;
    const outcome = {
      state: 'parked',
      at: parkedAt,
      attempts: attemptsOf(p.channel, deliveryId, p.attempts),
      deliveryId,
      error: p.lastError ?? null,
    } as const;
    for (const id of p.eventIds) note(index, id, p.channel, outcome);
  }
  for (const { channel, inflight } of deliveries.inflight) {
    const { deliveryId } = inflight;
    const outcome = {
      state: 'sending',
      attempts: attemptsOf(channel, deliveryId, inflight.attempts),
      deliveryId,
      error: inflight.lastError ?? null,
    } as const;
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
