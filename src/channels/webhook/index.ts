import { request } from 'undici';
import { parseRetryAfter } from '../../upstream/retry-after.js';
import { DeliveryError } from '../delivery-error.js';
import type { ChannelFactory } from '../types.js';
import { DELIVERY_HEADER, renderWebhookBody, SIGNATURE_HEADER, signBody } from './render.js';

/** A generic JSON POST with an HMAC-SHA256 signature header, for anything that is not Slack or email. */
export const createWebhookChannel: ChannelFactory<'webhook'> = (config, deps) => ({
  async send(message, progress) {
    const body = renderWebhookBody(config.name, message, deps.now());
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'shortwatch',
    };
    // A crash between the receiver's 2xx and the job's completion resends: this key lets it drop the repeat.
    if (progress?.deliveryId) headers[DELIVERY_HEADER] = progress.deliveryId;
    if (config.signingSecret) headers[SIGNATURE_HEADER] = signBody(body, config.signingSecret.reveal());
    let status: number;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await request(config.url.reveal(), {
        method: 'POST',
        body,
        headers,
        headersTimeout: config.timeout,
        bodyTimeout: config.timeout,
      });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      await response.body.dump();
    } catch (cause) {
      const code = cause instanceof Error && 'code' in cause ? String(cause.code) : 'network';
      throw new DeliveryError(`webhook ${config.name}: request failed (${code})`, { outcome: 'retry', code });
    }
    if (status >= 200 && status < 300) return;
    const where = `webhook ${config.name} answered ${status}`;
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(retryAfter, deps.now().getTime()) ?? 1_000;
      throw new DeliveryError(where, { outcome: 'rate-limit', status, retryAfterMs });
    }
    const outcome = status >= 500 || status === 408 ? 'retry' : 'park';
    throw new DeliveryError(where, { outcome, status });
  },
  async verify() {
    const url = new URL(config.url.reveal());
    return `webhook POST to ${url.protocol}//${url.host} (path redacted)${config.signingSecret ? ', signed' : ''}`;
  },
  async close() {},
});
