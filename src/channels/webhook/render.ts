import { createHmac } from 'node:crypto';
import type { Message } from '../types.js';

/** Header carrying `sha256=<hex HMAC of the raw body>` when a signing secret is configured. */
export const SIGNATURE_HEADER = 'x-shortwatch-signature';

/** The JSON body of a generic webhook: the message as shortwatch models it, with a schema version. */
export function renderWebhookBody(channel: string, message: Message, sentAt: Date): string {
  return JSON.stringify({ version: 1, channel, sentAt: sentAt.toISOString(), ...message });
}

/** Header carrying the delivery's id, the same on every attempt: an idempotency key for receivers. */
export const DELIVERY_HEADER = 'x-shortwatch-delivery';

/** `sha256=` + hex HMAC-SHA256 of the exact body bytes, for receivers to verify. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
