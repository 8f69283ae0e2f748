import { setTimeout as delay } from 'node:timers/promises';
import { type Agent, request } from 'undici';
import type { ChannelConfig } from '../../config/schema.js';
import { redactText } from '../../config/secret.js';
import { DeliveryError } from '../delivery-error.js';
import { sendInParts } from '../send-parts.js';
import { checkWebhookUrl } from '../slack/webhook-url.js';
import { timeoutAgent } from '../timeout-agent.js';
import type { ChannelDeps, ChannelFactory, ChannelSender, Message, SendProgress } from '../types.js';
import { urlSecretParts } from '../url-secrets.js';
import { classifyTeamsAnswer, classifyTeamsFailure, type TeamsAnswer } from './classify.js';
import { coalesceTeams } from './coalesce.js';
import type { TeamsPart } from './pack.js';
import { renderTeamsParts, type TeamsRenderOptions } from './render.js';

/** A Teams channel's config. */
export type TeamsChannelConfig = Extract<ChannelConfig, { kind: 'teams' }>;

/** What the sender needs besides its config; `sleep` spaces its requests to the channel's rate. */
export interface TeamsSenderDeps extends Pick<ChannelDeps, 'now'> {
  sleep: (ms: number) => Promise<void>;
}

/** A Teams sender: `send` may resume a split message where an earlier attempt stopped. */
export interface TeamsSender extends ChannelSender {
  send(message: Message, progress?: SendProgress): Promise<void>;
}

// Enough of an error body for its code; the rest is dropped with the connection.
const ERROR_BODY_BYTES = 4096;

/**
 * Builds a Teams sender: renders cards with {@link renderTeamsParts} and POSTs each to the Workflows URL,
 * every request (parts of one message included) at least `1 / ratePerSecond` after the one before.
 */
export function createTeamsSender(config: TeamsChannelConfig, deps: TeamsSenderDeps): TeamsSender {
  const url = config.webhookUrl.reveal();
  const check = checkWebhookUrl(url);
  const secrets = urlSecretParts(url);
  const redact = (text: string) => redactText(text, secrets);
  const gapMs = Math.ceil(1000 / config.ratePerSecond);
  const agent = timeoutAgent(config.timeout);
  let lastPostAt = Number.NEGATIVE_INFINITY;
  let closed = false;

  const invalidUrl = (problem: string) =>
    new DeliveryError(`Teams webhook URL of channel ${config.name} ${problem}`, {
      outcome: 'park',
      code: 'invalid_webhook_url',
    });

  /** One POST, spaced from the last; undefined when Teams took it, else its answer. */
  const post = async (part: TeamsPart, where: string): Promise<TeamsAnswer | undefined> => {
    const wait = lastPostAt + gapMs - deps.now().getTime();
    if (wait > 0) await deps.sleep(wait);
    lastPostAt = deps.now().getTime();
    return postTeams(url, part, { agent, timeoutMs: config.timeout, where });
  };

  const deliver = (part: TeamsPart, where: string) =>
    deliverSplitting(part, where, { post, now: deps.now, redact });

  const renderOptions = (deliveryId?: string): TeamsRenderOptions =>
    deliveryId ? { timezone: config.timezone, deliveryId } : { timezone: config.timezone };

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
    },
  };
}

/** Sends a part; one Teams finds too large (413) goes again as two halves, down to a single event. */
async function deliverSplitting(
  part: TeamsPart,
  where: string,
  at: {
    post: (part: TeamsPart, where: string) => Promise<TeamsAnswer | undefined>;
    now: () => Date;
    redact: (text: string) => string;
  },
): Promise<void> {
  const answer = await at.post(part, where);
  if (!answer) return;
  if (answer.status !== 413)
    throw classifyTeamsAnswer(answer, { nowMs: at.now().getTime(), where, redact: at.redact });
  const halves = part.split();
  if (!halves) {
    const message = `Teams webhook answered 413: a card of one entry (${part.bytes} bytes) is too large to send${where}`;
    throw new DeliveryError(message, { outcome: 'park', status: 413, code: 'too_large' });
  }
  for (const half of halves) await deliverSplitting(half, where, at);
}

/** One POST of a card; undefined when Teams took it, else its answer (a transport failure throws). */
async function postTeams(
  url: string,
  part: TeamsPart,
  at: { agent: Agent; timeoutMs: number; where: string },
): Promise<TeamsAnswer | undefined> {
  try {
    const response = await request(url, {
      method: 'POST',
      body: JSON.stringify(part.payload),
      headers: { 'content-type': 'application/json', 'user-agent': 'shortwatch' },
      dispatcher: at.agent,
    });
    if (response.statusCode >= 200 && response.statusCode < 300) {
      await response.body.dump();
      return undefined;
    }
    return {
      status: response.statusCode,
      retryAfter: response.headers['retry-after'],
      date: response.headers.date,
      body: await readCapped(response.body),
    };
  } catch (error) {
    throw classifyTeamsFailure(error, { where: at.where, timeoutMs: at.timeoutMs });
  }
}

/** Up to {@link ERROR_BODY_BYTES} of a body as text; the rest is not read. */
async function readCapped(body: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    chunks.push(buffer);
    size += buffer.length;
    if (size >= ERROR_BODY_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString('utf8');
}

/** The Microsoft Teams channel kind: a Workflows webhook posting Adaptive Cards. */
export const createTeamsChannel: ChannelFactory<'teams'> = (config, deps) =>
  createTeamsSender(config, { ...deps, sleep: (ms) => delay(ms) });
