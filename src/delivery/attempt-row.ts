import { isDeliveryError } from '../channels/delivery-error.js';
import { mailParts } from '../channels/email/burst.js';
import { deliveryMessageId } from '../channels/email/message-id.js';
import { messageEvents, messageIssuers } from '../channels/message-events.js';
import type { Message } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import type { AttemptRow } from '../state/delivery-record.js';
import { DELIVERY_IDS_LOGGED, DELIVERY_TIMES_LOGGED } from '../state/retention.js';

/** What the receiver said, from a send's error (none: it took the message). */
function answerOf(error: unknown): Pick<AttemptRow, 'answer' | 'action' | 'cause' | 'status' | 'error'> {
  if (error === undefined) return { answer: 'ok' };
  const text = error instanceof Error ? error.message : String(error);
  if (!isDeliveryError(error))
    // The deliverer retries what no channel classified: the record says so.
    return {
      answer: 'error',
      action: 'retry',
      cause: error instanceof Error ? error.name : 'Error',
      error: text,
    };
  return {
    answer: 'error',
    action: error.outcome,
    ...(error.code === undefined ? {} : { cause: error.code }),
    ...(error.status === undefined ? {} : { status: error.status }),
    error: text,
  };
}

/**
 * The Message-ID of each e-mail a delivery is: one, or for a burst's batch one per issuer's e-mail
 * (`<id-n@domain>`), space-separated as in a References header, so the record matches the mailbox.
 */
function messageIdsOf(message: Message, deliveryId: string, from: string): string {
  return mailParts(message, deliveryId)
    .map((part) => deliveryMessageId(part.deliveryId, from))
    .join(' ');
}

/** The distinct values, sorted, the first `DELIVERY_TIMES_LOGGED`: a row stays small whatever it carried. */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))].sort().slice(0, DELIVERY_TIMES_LOGGED);
}

/**
 * The record's row for one send attempt of `message` on `channel` (pure): what it carried, the ids its
 * receiver saw, and the answer (`error` undefined when the send succeeded).
 */
export function attemptRow(
  channel: ChannelConfig,
  message: Message,
  deliveryId: string,
  error?: unknown,
): AttemptRow {
  const events = messageEvents(message);
  return {
    channel: channel.name,
    channelKind: channel.kind,
    deliveryId,
    ...(channel.kind === 'email' ? { messageId: messageIdsOf(message, deliveryId, channel.from) } : {}),
    type: message.type,
    issuers: messageIssuers(message),
    holders: [...new Set(events.map((e) => e.holder))],
    kinds: [...new Set(events.map((e) => e.kind))],
    events: events.length,
    eventIds: events.slice(0, DELIVERY_IDS_LOGGED).map((e) => e.id),
    ...(events.length === 0
      ? {}
      : {
          disclosedOn: distinct(events.map((e) => (e.current ?? e.previous)?.date ?? '')),
          firstSeen: distinct(events.map((e) => e.detectedAt)),
        }),
    ...answerOf(error),
  };
}
