import { createHash } from 'node:crypto';

/**
 * Delivery ids: the idempotency keys a receiver sees (webhook `x-shortwatch-delivery` and `webhook-id`,
 * e-mail `Message-ID`). Each derives only from what the message carries, so every attempt of one message,
 * and a resend after a crash, has the same id. Built from '-' separated parts that start with a letter:
 * usable as BullMQ job ids, Redis hash fields and Message-ID local parts alike.
 */

/** A short stable hash usable inside ids and Redis keys, whatever the input's characters. */
export function shortHash(text: string, length = 16): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** A message of events to one channel: the channel and the set of event ids it carries. */
export function eventsDeliveryId(channel: string, eventIds: readonly string[]): string {
  return `d-${shortHash(channel, 8)}-${shortHash([...eventIds].sort().join(','), 24)}`;
}

/** A notice: one per problem occurrence (its raise or its clear). */
export function noticeDeliveryId(channel: string, key: string, occurrence: string): string {
  return `n-${shortHash(channel, 8)}-${shortHash(`${key}|${occurrence}`, 24)}`;
}

/** One digest period of one channel, by the instant it ends. */
export function digestBatchId(channel: string, periodEnd: number): string {
  return `dg-${shortHash(channel, 8)}-t${periodEnd}`;
}

/** The heartbeat of one minute. */
export function heartbeatDeliveryId(channel: string, minuteIso: string): string {
  return `hb-${shortHash(channel, 8)}-${minuteIso.slice(0, 16).replace(/[^0-9]/g, '')}`;
}
