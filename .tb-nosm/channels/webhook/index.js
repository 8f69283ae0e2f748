import { randomUUID } from "node:crypto";
import { request } from "undici";
import { parseRetryAfter } from "../../time/retry-after.js";
import { DeliveryError } from "../delivery-error.js";
import { httpRefusal } from "../http-refusal.js";
import { isUnreachableUrl } from "../unreachable-host.js";
import { coalesceWebhook } from "./coalesce.js";
import { DELIVERY_HEADER, renderWebhookBody } from "./render.js";
import { createWebhookSigner } from "./sign.js";
const createWebhookChannel = (config, deps) => {
  const sign = createWebhookSigner(config.signingSecret.reveal());
  return {
    async send(message, progress) {
      const sentAt = deps.now();
      const body = renderWebhookBody(config.name, message, sentAt);
      const id = progress?.deliveryId ?? `t-${randomUUID()}`;
      const headers = {
        "content-type": "application/json",
        "user-agent": "shortwatch",
        [DELIVERY_HEADER]: id,
        ...sign(id, sentAt, body)
      };
      const status = await post(config.name, config.url.reveal(), body, headers, config.timeout);
      if (status.code >= 200 && status.code < 300) return;
      const retryAfterMs = parseRetryAfter(status.retryAfter, deps.now().getTime());
      throw httpRefusal(`webhook ${config.name} answered ${status.code}`, {
        status: status.code,
        retryAfterMs
      });
    },
    coalesce: coalesceWebhook,
    async verify() {
      const url = new URL(config.url.reveal());
      return `webhook POST to ${url.protocol}//${url.host} (path redacted), signed (Standard Webhooks)`;
    },
    async close() {
    }
  };
};
async function post(channel, url, body, headers, timeout) {
  try {
    const response = await request(url, {
      method: "POST",
      body,
      headers,
      headersTimeout: timeout,
      bodyTimeout: timeout
    });
    await response.body.dump();
    return { code: response.statusCode, retryAfter: response.headers["retry-after"] };
  } catch (cause) {
    const code = cause instanceof Error && "code" in cause ? String(cause.code) : "network";
    throw new DeliveryError(`webhook ${channel}: request failed (${code})`, {
      outcome: isUnreachableUrl(code) ? "park" : "retry",
      code
    });
  }
}
export {
  createWebhookChannel
};
