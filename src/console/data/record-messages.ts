import type { RecordedAttempt } from '../../state/delivery-record.js';

/** One message as the record tells it: what it carried, the ids its receiver saw, and every attempt. */
export interface RecordedMessage {
  channel: string;
  deliveryId: string;
  messageId: string | undefined;
  type: string;
  issuers: RecordedAttempt['issuers'];
  holders: string[];
  kinds: string[];
  events: number;
  /** The first ids of the events it carried (empty for rows recorded before they were kept). */
  eventIds: string[];
  /** Its attempts found in the range, oldest first. */
  attempts: RecordedAttempt[];
  /** When the receiver took it (its last `ok`), if it did. */
  acceptedAt: number | null;
  lastAt: number;
}

/**
 * Rows (any order) grouped into messages by channel and delivery id, the most recently tried first. A
 * parked message sent again keeps its delivery id, so its attempts before and after the retry add up.
 */
export function recordedMessages(rows: readonly RecordedAttempt[]): RecordedMessage[] {
  const byDelivery = new Map<string, RecordedAttempt[]>();
  for (const row of rows) {
    const key = `${row.channel}\u0000${row.deliveryId}`;
    byDelivery.set(key, [...(byDelivery.get(key) ?? []), row]);
  }
  return [...byDelivery.values()]
    .map((attempts) => messageOf([...attempts].sort((a, b) => a.at - b.at || a.id.localeCompare(b.id))))
    .sort((a, b) => b.lastAt - a.lastAt);
}

function messageOf(attempts: RecordedAttempt[]): RecordedMessage {
  // Never empty: each group holds the row that made it.
  const last = attempts[attempts.length - 1]!;
  const accepted = attempts.filter((a) => a.answer === 'ok').at(-1);
  return {
    channel: last.channel,
    deliveryId: last.deliveryId,
    messageId: last.messageId,
    type: last.type,
    issuers: last.issuers,
    holders: last.holders,
    kinds: last.kinds,
    events: last.events,
    eventIds: last.eventIds ?? [],
    attempts,
    acceptedAt: accepted?.at ?? null,
    lastAt: last.at,
  };
}
