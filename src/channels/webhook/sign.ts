import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers of one call. */
export interface StandardWebhookHeaders {
  /** The delivery id: the same on every attempt, so a receiver drops a repeat by it. */
  'webhook-id': string;
  /** Seconds since the epoch of this attempt; verifiers refuse one more than 5 minutes off. */
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
  'webhook-signature': string;
}

/** Signs calls with one channel's secret (`whsec_<base64>`, checked by the config schema). */
export type WebhookSigner = (id: string, sentAt: Date, body: string) => StandardWebhookHeaders;

/**
 * A signer over the `standardwebhooks` package, the same code receivers verify with. The key lives only
 * in this closure: nothing that logs or inspects the channel can reach it.
 */
export function createWebhookSigner(secret: string): WebhookSigner {
  const webhook = new Webhook(secret);
  return (id, sentAt, body) => ({
    'webhook-id': id,
    // The package signs whole seconds of sentAt: the header must carry the same second.
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': webhook.sign(id, sentAt, body),
  });
}
