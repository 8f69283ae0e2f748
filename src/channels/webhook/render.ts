import { jsonChannelMessage, stringifyVisible } from '../format.js';
import type { Message } from '../types.js';

/**
 * The JSON body of a generic webhook: the message as shortwatch models it, with a schema version.
 * `type` tells the shapes apart: `events` has `issuer` and `events`; `batch` (several issuers coalesced
 * while the channel had a backlog) has `groups: [{ issuer, events }]`; `digest`, `notice` and `test` as typed.
 * Holder and issuer names are the upstream's exact values (data); notice texts are display text; control
 * and bidi characters are `\uXXXX` escapes in the bytes ({@link jsonChannelMessage}, {@link stringifyVisible}).
 */
export function renderWebhookBody(channel: string, message: Message, sentAt: Date): string {
  const body = { version: 1, channel, sentAt: sentAt.toISOString(), ...jsonChannelMessage(message) };
  return stringifyVisible(body);
}

/**
 * Header carrying the delivery's id, the same on every attempt: an idempotency key for receivers. It
 * repeats `webhook-id` for receivers written before the Standard Webhooks headers.
 */
export const DELIVERY_HEADER = 'x-shortwatch-delivery';
