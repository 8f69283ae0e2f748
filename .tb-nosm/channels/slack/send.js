import { setTimeout as delay } from "node:timers/promises";
import { IncomingWebhook } from "@slack/webhook";
import { fetch } from "undici";
import { redactText } from "../../config/secret.js";
import { DeliveryError } from "../delivery-error.js";
import { sendInParts } from "../send-parts.js";
import { timeoutAgent } from "../timeout-agent.js";
import { urlSecretParts } from "../url-secrets.js";
import { classifySlackFailure } from "./classify.js";
import { coalesceSlack } from "./coalesce.js";
import { renderSlack } from "./render.js";
import { checkWebhookUrl } from "./webhook-url.js";
const PART_GAP_MS = 1e3;
function createSlackSender(config, deps) {
  const url = config.webhookUrl.reveal();
  const check = checkWebhookUrl(url);
  const secrets = urlSecretParts(url);
  const redact = (text) => redactText(text, secrets);
  const renderOptions = { mention: config.mention, timezone: config.timezone };
  const agent = timeoutAgent(config.timeout);
  let closed = false;
  const invalidUrl = (problem) => new DeliveryError(`Slack webhook URL of channel ${config.name} ${problem}`, {
    outcome: "park",
    code: "invalid_webhook_url"
  });
  const post = (payload, where) => postSlack(url, payload, {
    agent,
    timeoutMs: config.timeout,
    where,
    redact,
    nowMs: () => deps.now().getTime()
  });
  return {
    // Incoming webhooks take no idempotency key, so `progress.deliveryId` has nowhere to go: delivery here
    // is at least once. A crash after Slack accepted a part but before `onPartSent` recorded it resends it.
    async send(message, progress) {
      if (!check.ok) throw invalidUrl(check.problem);
      await sendInParts(renderSlack(message, renderOptions), progress, async (payload, where, later) => {
        if (later) await deps.sleep(PART_GAP_MS);
        await post(payload, where);
      });
    },
    coalesce(groups) {
      return coalesceSlack(groups, renderOptions);
    },
    async verify() {
      if (!check.ok) throw invalidUrl(check.problem);
      return check.description;
    },
    async close() {
      if (closed) return;
      closed = true;
      await agent.close();
    }
  };
}
async function postSlack(url, payload, at) {
  let retryAfter = null;
  let date = null;
  const recordingFetch = async (target, init) => {
    const response = await fetch(target, {
      method: init?.method,
      headers: init?.headers,
      body: typeof init?.body === "string" ? init.body : void 0,
      redirect: init?.redirect,
      signal: init?.signal,
      dispatcher: at.agent
    });
    retryAfter = response.headers.get("retry-after");
    date = response.headers.get("date");
    return response;
  };
  const webhook = new IncomingWebhook(url, { fetch: recordingFetch, timeout: at.timeoutMs });
  try {
    await webhook.send(payload);
  } catch (error) {
    throw classifySlackFailure(error, {
      retryAfter,
      date,
      nowMs: at.nowMs(),
      timeoutMs: at.timeoutMs,
      where: at.where,
      redact: at.redact
    });
  }
}
const createSlackChannel = (config, deps) => createSlackSender(config, { ...deps, sleep: (ms) => delay(ms) });
export {
  PART_GAP_MS,
  createSlackChannel,
  createSlackSender
};
