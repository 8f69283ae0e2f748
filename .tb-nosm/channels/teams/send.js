import { setTimeout as delay } from "node:timers/promises";
import { request } from "undici";
import { redactText } from "../../config/secret.js";
import { DeliveryError } from "../delivery-error.js";
import { sendInParts } from "../send-parts.js";
import { checkWebhookUrl } from "../slack/webhook-url.js";
import { timeoutAgent } from "../timeout-agent.js";
import { urlSecretParts } from "../url-secrets.js";
import { classifyTeamsAnswer, classifyTeamsFailure } from "./classify.js";
import { coalesceTeams } from "./coalesce.js";
import { renderTeamsParts } from "./render.js";
const ERROR_BODY_BYTES = 4096;
function createTeamsSender(config, deps) {
  const url = config.webhookUrl.reveal();
  const check = checkWebhookUrl(url);
  const secrets = urlSecretParts(url);
  const redact = (text) => redactText(text, secrets);
  const gapMs = Math.ceil(1e3 / config.ratePerSecond);
  const agent = timeoutAgent(config.timeout);
  let lastPostAt = Number.NEGATIVE_INFINITY;
  let closed = false;
  const invalidUrl = (problem) => new DeliveryError(`Teams webhook URL of channel ${config.name} ${problem}`, {
    outcome: "park",
    code: "invalid_webhook_url"
  });
  const post = async (part, where) => {
    const wait = lastPostAt + gapMs - deps.now().getTime();
    if (wait > 0) await deps.sleep(wait);
    lastPostAt = deps.now().getTime();
    return postTeams(url, part, { agent, timeoutMs: config.timeout, where });
  };
  const deliver = (part, where) => deliverSplitting(part, where, { post, now: deps.now, redact });
  const renderOptions = (deliveryId) => deliveryId ? { timezone: config.timezone, deliveryId } : { timezone: config.timezone };
  return {
    // Workflows webhooks take no idempotency key: delivery is at least once. The card shows the delivery
    // id, so a reader can tell a resend after a crash from news. A 429 or a crash while the halves of a
    // refused part go out sends that part's halves again on the next attempt.
    async send(message, progress) {
      if (!check.ok) throw invalidUrl(check.problem);
      const parts = renderTeamsParts(message, renderOptions(progress?.deliveryId));
      await sendInParts(parts, progress, (part, where) => deliver(part, where));
    },
    coalesce(groups) {
      return coalesceTeams(groups, renderOptions());
    },
    async verify() {
      if (!check.ok) throw invalidUrl(check.problem);
      return `Teams ${check.description}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await agent.close();
    }
  };
}
async function deliverSplitting(part, where, at) {
  const answer = await at.post(part, where);
  if (!answer) return;
  if (answer.status !== 413)
    throw classifyTeamsAnswer(answer, { nowMs: at.now().getTime(), where, redact: at.redact });
  const halves = part.split();
  if (!halves) {
    const message = `Teams webhook answered 413: a card of one entry (${part.bytes} bytes) is too large to send${where}`;
    throw new DeliveryError(message, { outcome: "park", status: 413, code: "too_large" });
  }
  for (const half of halves) await deliverSplitting(half, where, at);
}
async function postTeams(url, part, at) {
  try {
    const response = await request(url, {
      method: "POST",
      body: JSON.stringify(part.payload),
      headers: { "content-type": "application/json", "user-agent": "shortwatch" },
      dispatcher: at.agent
    });
    if (response.statusCode >= 200 && response.statusCode < 300) {
      await response.body.dump();
      return void 0;
    }
    return {
      status: response.statusCode,
      retryAfter: response.headers["retry-after"],
      date: response.headers.date,
      body: await readCapped(response.body)
    };
  } catch (error) {
    throw classifyTeamsFailure(error, { where: at.where, timeoutMs: at.timeoutMs });
  }
}
async function readCapped(body) {
  const chunks = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    chunks.push(buffer);
    size += buffer.length;
    if (size >= ERROR_BODY_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString("utf8");
}
const createTeamsChannel = (config, deps) => createTeamsSender(config, { ...deps, sleep: (ms) => delay(ms) });
export {
  createTeamsChannel,
  createTeamsSender
};
