import { setTimeout as delay } from 'node:timers/promises';
import type { ChannelConfig } from '../../config/schema.js';
import { DeliveryError } from '../delivery-error.js';
import { sendInParts } from '../send-parts.js';
import type { SlackRenderOptions } from '../slack/render.js';
import { timeoutAgent } from '../timeout-agent.js';
import type { ChannelDeps, ChannelFactory, ChannelSender, IssuerEvents } from '../types.js';
import { classifyWebApiAnswer, classifyWebApiFailure } from './classify.js';
import { directConversation } from './direct.js';
import { keptMemory } from './kept-memory.js';
import { MethodGate } from './method-gate.js';
import { runStep } from './run-step.js';
import { DIRECT_SCOPES, missingScopes, REQUIRED_SCOPES } from './scopes.js';
import { planSteps } from './steps.js';
import { callWebApi, type WebApiAnswer, type WebApiTarget } from './web-api.js';

/** A slack-app channel's config. */
export type SlackAppChannelConfig = Extract<ChannelConfig, { kind: 'slack-app' }>;

/** What the sender needs besides its config; `sleep` paces the steps and waits out a 429. */
export interface SlackAppDeps extends ChannelDeps {
  sleep: (ms: number) => Promise<void>;
}

/**
 * How many issuers one delivery of a backlog carries: a second's worth at the channel's rate (at least
 * one), each still its own message in its own thread, paced at that rate.
 */
export function burstOf(ratePerSecond: number) {
  const perDelivery = Math.max(1, Math.ceil(ratePerSecond));
  return (groups: readonly IssuerEvents[]): number => Math.min(groups.length, perDelivery);
}

/** Calls a Web API method through the per-method gate; any answer but `ok` throws a DeliveryError. */
function gatedCaller(api: WebApiTarget, gate: MethodGate, now: () => Date) {
  const once = async (method: string, args: Record<string, unknown>, where: string) => {
    let answer: WebApiAnswer;
    try {
      answer = await callWebApi(api, method, args);
    } catch (error) {
      throw classifyWebApiFailure(error, { method, where });
    }
    if (answer.status === 200 && answer.body?.ok) return answer;
    throw classifyWebApiAnswer(answer, { method, where, nowMs: now().getTime() });
  };
  return (method: string, args: Record<string, unknown>, where: string) =>
    gate.run(method, () => once(method, args, where));
}

/**
 * Builds a slack-app sender: each issuer's events are one Block Kit message (the webhook kind's render)
 * posted with `chat.postMessage` in the issuer's thread of the day, a correction of a recent message is
 * that message edited (steps.ts, run-step.ts), every message goes to the channel and to each direct
 * message; `verify` is `auth.test` and names any scope the token lacks.
 */
export function createSlackAppSender(config: SlackAppChannelConfig, deps: SlackAppDeps): ChannelSender {
  const agent = timeoutAgent(config.timeout);
  const api = { apiUrl: config.apiUrl, token: config.token.reveal(), agent };
  const gapMs = Math.ceil(1000 / config.ratePerSecond);
  const renderOptions: SlackRenderOptions = { mention: config.mention, timezone: config.timezone };
  let closed = false;

  const call = gatedCaller(api, new MethodGate(deps), deps.now);
  // What a post Slack accepted leaves (a thread's parent, a told message) must outlive a Redis restart.
  const memory = keptMemory(deps.memory, { sleep: deps.sleep, open: () => !closed });

  const conversations = async (): Promise<string[]> => {
    const direct: string[] = [];
    for (const email of config.directMessages) direct.push(await directConversation(email, { call, memory }));
    return config.channel === undefined ? direct : [config.channel, ...direct];
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
      const answer = await call('auth.test', {}, '');
      const required =
        config.directMessages.length > 0 ? [...REQUIRED_SCOPES, ...DIRECT_SCOPES] : REQUIRED_SCOPES;
      const missing = missingScopes(answer.scopes, required);
      if (missing.length > 0) {
        throw new DeliveryError(
          `Slack bot token of channel ${config.name} lacks the scope ${missing.join(', ')}`,
          { outcome: 'park', code: 'missing_scope' },
        );
      }
      const targets = await conversations();
      return `Slack app posting to ${targets.join(', ')} through ${new URL(config.apiUrl).host} (token redacted)`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await agent.close();
    },
  };
}

/** The slack-app channel kind: a bot token and Slack's Web API. */
export const createSlackAppChannel: ChannelFactory<'slack-app'> = (config, deps) =>
  createSlackAppSender(config, { ...deps, sleep: (ms) => delay(ms) });
