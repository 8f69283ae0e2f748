import { setTimeout as delay } from 'node:timers/promises';
import type { ChannelConfig } from '../../config/schema.js';
import { DeliveryError } from '../delivery-error.js';
import { sendInParts } from '../send-parts.js';
import { coalesceSlack } from '../slack/coalesce.js';
import { renderSlack, type SlackRenderOptions } from '../slack/render.js';
import { timeoutAgent } from '../timeout-agent.js';
import type { ChannelDeps, ChannelFactory, ChannelSender } from '../types.js';
import { classifyWebApiAnswer, classifyWebApiFailure } from './classify.js';
import { missingScopes } from './scopes.js';
import { callWebApi, type WebApiAnswer } from './web-api.js';

/** A slack-app channel's config. */
export type SlackAppChannelConfig = Extract<ChannelConfig, { kind: 'slack-app' }>;

/** What the sender needs besides its config; `sleep` paces the parts of a split message. */
export interface SlackAppDeps extends ChannelDeps {
  sleep: (ms: number) => Promise<void>;
}

/**
 * Builds a slack-app sender: the same Block Kit payloads as the webhook kind ({@link renderSlack}), posted
 * with `chat.postMessage` to the configured conversation, parts at the channel's rate; `verify` is
 * `auth.test` and names any scope the token lacks.
 */
export function createSlackAppSender(config: SlackAppChannelConfig, deps: SlackAppDeps): ChannelSender {
  const agent = timeoutAgent(config.timeout);
  const api = { apiUrl: config.apiUrl, token: config.token.reveal(), agent };
  const gapMs = Math.ceil(1000 / config.ratePerSecond);
  const renderOptions: SlackRenderOptions = { mention: config.mention, timezone: config.timezone };
  let closed = false;

  const call = async (
    method: string,
    args: Record<string, unknown>,
    where: string,
  ): Promise<WebApiAnswer> => {
    let answer: WebApiAnswer;
    try {
      answer = await callWebApi(api, method, args);
    } catch (error) {
      throw classifyWebApiFailure(error, { method, where });
    }
    if (answer.status === 200 && answer.body?.ok) return answer;
    throw classifyWebApiAnswer(answer, { method, where, nowMs: deps.now().getTime() });
  };

  return {
    // chat.postMessage takes no idempotency key: delivery is at least once, as for the webhook kind. A
    // crash after Slack accepted a part but before the outbox recorded it posts that part again.
    async send(message, progress) {
      await sendInParts(renderSlack(message, renderOptions), progress, async (payload, where, later) => {
        if (later) await deps.sleep(gapMs);
        await call('chat.postMessage', { channel: config.channel, ...payload }, where);
      });
    },
    coalesce(groups) {
      return coalesceSlack(groups, renderOptions);
    },
    async verify() {
      const answer = await call('auth.test', {}, '');
      const missing = missingScopes(answer.scopes);
      if (missing.length > 0) {
        throw new DeliveryError(
          `Slack bot token of channel ${config.name} lacks the scope ${missing.join(', ')}`,
          {
            outcome: 'park',
            code: 'missing_scope',
          },
        );
      }
      return `Slack app posting to ${config.channel} through ${new URL(config.apiUrl).host} (token redacted)`;
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
