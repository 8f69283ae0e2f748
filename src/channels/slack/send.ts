import { setTimeout as delay } from 'node:timers/promises';
import { type FetchFunction, IncomingWebhook } from '@slack/webhook';
import { type Agent, fetch } from 'undici';
import type { ChannelConfig } from '../../config/schema.js';
import { redactText } from '../../config/secret.js';
import { DeliveryError } from '../delivery-error.js';
import { sendInParts } from '../send-parts.js';
import { timeoutAgent } from '../timeout-agent.js';
import type { ChannelDeps, ChannelFactory, ChannelSender, Message, SendProgress } from '../types.js';
import { urlSecretParts } from '../url-secrets.js';
import type { SlackPayload } from './blocks.js';
import { classifySlackFailure } from './classify.js';
import { coalesceSlack } from './coalesce.js';
import { renderSlack, type SlackRenderOptions } from './render.js';
import { checkWebhookUrl } from './webhook-url.js';

/** A Slack channel's config. */
export type SlackChannelConfig = Extract<ChannelConfig, { kind: 'slack' }>;

/** A Slack sender: `send` may resume a split message where an earlier attempt stopped. */
export interface SlackSender extends ChannelSender {
  send(message: Message, progress?: SendProgress): Promise<void>;
}

/** What the sender needs besides its config; `sleep` paces the parts of a split message. */
export interface SlackSenderDeps extends Pick<ChannelDeps, 'now'> {
  sleep: (ms: number) => Promise<void>;
}

/** Slack accepts about one message per second per webhook; parts of one message keep to that. */
export const PART_GAP_MS = 1000;

/** Builds a Slack sender: renders with {@link renderSlack} and posts each part through @slack/webhook. */
export function createSlackSender(config: SlackChannelConfig, deps: SlackSenderDeps): SlackSender {
  const url = config.webhookUrl.reveal();
  const check = checkWebhookUrl(url);
  const secrets = urlSecretParts(url);
  const redact = (text: string) => redactText(text, secrets);
  const renderOptions: SlackRenderOptions = { mention: config.mention, timezone: config.timezone };
  const agent = timeoutAgent(config.timeout);
  let closed = false;

  const invalidUrl = (problem: string) =>
    new DeliveryError(`Slack webhook URL of channel ${config.name} ${problem}`, {
      outcome: 'park',
      code: 'invalid_webhook_url',
    });

  const post = (payload: SlackPayload, where: string) =>
    postSlack(url, payload, {
      agent,
      timeoutMs: config.timeout,
      where,
      redact,
      nowMs: () => deps.now().getTime(),
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
    },
  };
}

/** Posts one payload through @slack/webhook; a failure becomes the DeliveryError that says what to do. */
async function postSlack(
  url: string,
  payload: SlackPayload,
  at: {
    agent: Agent;
    timeoutMs: number;
    where: string;
    redact: (text: string) => string;
    /** The clock an HTTP-date Retry-After is measured against (with the answer's own `Date`). */
    nowMs: () => number;
  },
): Promise<void> {
  // One webhook client per request, so the Retry-After it records belongs to this request only.
  let retryAfter: string | null = null;
  let date: string | null = null;
  const recordingFetch: FetchFunction = async (target, init) => {
    const response = await fetch(target, {
      method: init?.method,
      headers: init?.headers,
      body: typeof init?.body === 'string' ? init.body : undefined,
      redirect: init?.redirect,
      signal: init?.signal,
      dispatcher: at.agent,
    });
    retryAfter = response.headers.get('retry-after');
    date = response.headers.get('date');
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
      redact: at.redact,
    });
  }
}

/** The Slack channel kind: incoming webhooks, Block Kit with a plain-text fallback. */
export const createSlackChannel: ChannelFactory<'slack'> = (config, deps) =>
  createSlackSender(config, { ...deps, sleep: (ms) => delay(ms) });
