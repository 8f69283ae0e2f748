import { setTimeout as delay } from "node:timers/promises";
import { DeliveryError } from "../delivery-error.js";
import { sendInParts } from "../send-parts.js";
import { timeoutAgent } from "../timeout-agent.js";
import { classifyWebApiAnswer, classifyWebApiFailure } from "./classify.js";
import { directConversation } from "./direct.js";
import { keptMemory } from "./kept-memory.js";
import { MethodGate } from "./method-gate.js";
import { runStep } from "./run-step.js";
import { DIRECT_SCOPES, missingScopes, REQUIRED_SCOPES } from "./scopes.js";
import { planSteps } from "./steps.js";
import { callWebApi } from "./web-api.js";
function burstOf(ratePerSecond) {
  const perDelivery = Math.max(1, Math.ceil(ratePerSecond));
  return (groups) => Math.min(groups.length, perDelivery);
}
function gatedCaller(api, gate, now) {
  const once = async (method, args, where) => {
    let answer;
    try {
      answer = await callWebApi(api, method, args);
    } catch (error) {
      throw classifyWebApiFailure(error, { method, where });
    }
    if (answer.status === 200 && answer.body?.ok) return answer;
    throw classifyWebApiAnswer(answer, { method, where, nowMs: now().getTime() });
  };
  return (method, args, where) => gate.run(method, () => once(method, args, where));
}
function createSlackAppSender(config, deps) {
  const agent = timeoutAgent(config.timeout);
  const api = { apiUrl: config.apiUrl, token: config.token.reveal(), agent };
  const gapMs = Math.ceil(1e3 / config.ratePerSecond);
  const renderOptions = { mention: config.mention, timezone: config.timezone };
  let closed = false;
  const call = gatedCaller(api, new MethodGate(deps), deps.now);
  const memory = keptMemory(deps.memory, { sleep: deps.sleep, open: () => !closed });
  const conversations = async () => {
    const direct = [];
    for (const email of config.directMessages) direct.push(await directConversation(email, { call, memory }));
    return config.channel === void 0 ? direct : [config.channel, ...direct];
  };
  const stepDeps = { call, memory, now: deps.now, timezone: config.timezone, broadcast: config.broadcast };
  return {
    // No Web API method takes an idempotency key: delivery is at least once. A crash after Slack accepted
    // a step but before the outbox recorded it repeats that step (a post in the same thread, or an edit
    // that changes nothing); a Redis outage there does not, as the step's writes wait for Redis
    // (kept-memory.ts). The stable id is the delivery id (`progress.deliveryId`): in the record of
    // sent messages, and on every post as message metadata (run-step.ts).
    async send(message, progress) {
      const steps = await planSteps(message, await conversations(), memory, renderOptions);
      await sendInParts(steps, progress, async (step, where, later) => {
        if (later) await deps.sleep(gapMs);
        await runStep({ ...stepDeps, deliveryId: progress?.deliveryId }, step, where);
      });
    },
    coalesce: burstOf(config.ratePerSecond),
    async verify() {
      const answer = await call("auth.test", {}, "");
      const required = config.directMessages.length > 0 ? [...REQUIRED_SCOPES, ...DIRECT_SCOPES] : REQUIRED_SCOPES;
      const missing = missingScopes(answer.scopes, required);
      if (missing.length > 0) {
        throw new DeliveryError(
          `Slack bot token of channel ${config.name} lacks the scope ${missing.join(", ")}`,
          { outcome: "park", code: "missing_scope" }
        );
      }
      const targets = await conversations();
      return `Slack app posting to ${targets.join(", ")} through ${new URL(config.apiUrl).host} (token redacted)`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await agent.close();
    }
  };
}
const createSlackAppChannel = (config, deps) => createSlackAppSender(config, { ...deps, sleep: (ms) => delay(ms) });
export {
  burstOf,
  createSlackAppChannel,
  createSlackAppSender
};
