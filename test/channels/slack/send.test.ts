import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryError, isDeliveryError } from '../../../src/channels/delivery-error.js';
import {
  coalesceSlack,
  createSlackChannel,
  createSlackSender,
  PART_GAP_MS,
  renderSlack,
  type SlackChannelConfig,
  type SlackSender,
} from '../../../src/channels/slack/index.js';
import type { EventsMessage, Message } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, holderRaise } from '../story-fixtures.js';

const TOKEN = 'T0SECRET/B0SECRET/xoxSecretToken123';
const PATH = `/services/${TOKEN}`;
const NOW = () => new Date('2024-05-02T07:31:00Z');

interface Received {
  method: string | undefined;
  url: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/** A Slack stand-in: records each request and answers with the next queued reply (default 200 ok). */
type Reply = (res: ServerResponse) => void;
let server: Server;
let port: number;
let received: Received[] = [];
let replies: Reply[] = [];

const ok: Reply = (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
const answer =
  (status: number, body: string, headers: Record<string, string> = {}): Reply =>
  (res) =>
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
const never: Reply = () => {};

async function listen(target: Server): Promise<number> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const address = target.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return address.port;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await readBody(req);
    received.push({
      method: req.method,
      url: req.url,
      contentType: req.headers['content-type'],
      body: JSON.parse(text),
    });
    (replies.shift() ?? ok)(res);
  });
  port = await listen(server);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const senders: SlackSender[] = [];
afterEach(async () => {
  received = [];
  replies = [];
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
  // Requests left hanging by the timeout case.
  server.closeAllConnections();
});

function slackConfig(fields: Record<string, unknown> = {}): SlackChannelConfig {
  const config = channelSchema.parse({
    kind: 'slack',
    name: 'desk',
    webhookUrl: `http://127.0.0.1:${port}${PATH}`,
    timeout: '2s',
    ...fields,
  });
  if (config.kind !== 'slack') throw new Error('expected a slack config');
  return config;
}

function sender(fields: Record<string, unknown> = {}, sleeps: number[] = []): SlackSender {
  const created = createSlackSender(slackConfig(fields), {
    now: NOW,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  senders.push(created);
  return created;
}

const small: EventsMessage = {
  type: 'events',
  issuer: ACME,
  events: [holderRaise(1)],
};
const large: EventsMessage = { ...small, events: Array.from({ length: 60 }, (_, i) => holderRaise(i)) };

/** Sends and returns the DeliveryError it must throw. */
async function failure(send: Promise<void>): Promise<DeliveryError> {
  const error = await send.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isDeliveryError(error)) throw new Error(`expected a DeliveryError, got ${String(error)}`);
  return error;
}

/** Everything an error could print: message, stack, fields, cause, JSON. */
function printed(error: DeliveryError): string {
  return [error.message, error.stack, error.code, String(error.cause), JSON.stringify(error)].join('\n');
}

function expectNoSecret(error: DeliveryError): void {
  const text = printed(error);
  for (const secret of [TOKEN, PATH, 'xoxSecretToken123', 'B0SECRET']) expect(text).not.toContain(secret);
}

describe('Slack sender', () => {
  it('posts the rendered payload as JSON to the webhook', async () => {
    const config = { mention: '<!here>', timezone: 'Europe/London' };
    await sender(config).send(small);
    expect(received).toEqual([
      {
        method: 'POST',
        url: PATH,
        contentType: 'application/json',
        body: renderSlack(small, config)[0],
      },
    ]);
  });

  it('posts every part of a split message in order, paced, recording progress', async () => {
    const sleeps: number[] = [];
    const progress: number[] = [];
    const payloads = renderSlack(large);
    expect(payloads.length).toBeGreaterThan(1);
    await sender({}, sleeps).send(large, {
      partsSent: 0,
      deliveryId: 'd-1',
      onPartSent: async (count) => {
        progress.push(count);
      },
    });
    expect(received.map((request) => request.body)).toEqual(payloads);
    expect(sleeps).toEqual(Array.from({ length: payloads.length - 1 }, () => PART_GAP_MS));
    expect(progress).toEqual(payloads.map((_, i) => i + 1));
  });

  it('resumes a split message after the parts already sent', async () => {
    const payloads = renderSlack(large);
    await sender().send(large, { partsSent: 1, deliveryId: 'd-1' });
    expect(received.map((request) => request.body)).toEqual(payloads.slice(1));
  });

  it('stops at a failed part and reports which one', async () => {
    const progress: number[] = [];
    replies = [ok, answer(500, 'rollup_error')];
    const error = await failure(
      sender().send(large, {
        partsSent: 0,
        deliveryId: 'd-1',
        onPartSent: async (count) => {
          progress.push(count);
        },
      }),
    );
    expect(error.outcome).toBe('retry');
    expect(error.message).toContain(`part 2/${renderSlack(large).length}`);
    expect(progress).toEqual([1]);
    expect(received).toHaveLength(2);
  });

  const statusCases: {
    name: string;
    reply: Reply;
    expected: Pick<DeliveryError, 'outcome' | 'status' | 'code' | 'retryAfterMs'>;
  }[] = [
    {
      name: '429 with Retry-After: 3 pauses the channel 3 s',
      reply: answer(429, 'rate_limited', { 'retry-after': '3' }),
      expected: { outcome: 'rate-limit', status: 429, code: 'rate_limited', retryAfterMs: 3000 },
    },
    {
      name: "429 with an HTTP-date Retry-After pauses until that date, by the answer's own Date header",
      reply: answer(429, 'rate_limited', {
        'retry-after': 'Wed, 21 Oct 2026 07:28:10 GMT',
        date: 'Wed, 21 Oct 2026 07:28:00 GMT',
      }),
      expected: { outcome: 'rate-limit', status: 429, code: 'rate_limited', retryAfterMs: 10_000 },
    },
    {
      name: '429 without Retry-After pauses the channel 1 s',
      reply: answer(429, 'rate_limited'),
      expected: { outcome: 'rate-limit', status: 429, code: 'rate_limited', retryAfterMs: 1000 },
    },
    {
      name: '500 rollup_error is retried',
      reply: answer(500, 'rollup_error'),
      expected: { outcome: 'retry', status: 500, code: 'rollup_error', retryAfterMs: undefined },
    },
    {
      name: '503 with an empty body is retried',
      reply: answer(503, ''),
      expected: { outcome: 'retry', status: 503, code: 'http_503', retryAfterMs: undefined },
    },
    {
      name: '400 invalid_payload is parked',
      reply: answer(400, 'invalid_payload'),
      expected: { outcome: 'park', status: 400, code: 'invalid_payload', retryAfterMs: undefined },
    },
    {
      name: '403 action_prohibited is parked',
      reply: answer(403, 'action_prohibited'),
      expected: { outcome: 'park', status: 403, code: 'action_prohibited', retryAfterMs: undefined },
    },
    {
      name: '404 no_service is parked',
      reply: answer(404, 'no_service'),
      expected: { outcome: 'park', status: 404, code: 'no_service', retryAfterMs: undefined },
    },
    {
      name: '404 channel_not_found is parked',
      reply: answer(404, 'channel_not_found'),
      expected: { outcome: 'park', status: 404, code: 'channel_not_found', retryAfterMs: undefined },
    },
    {
      name: '410 channel_is_archived is parked',
      reply: answer(410, 'channel_is_archived'),
      expected: { outcome: 'park', status: 410, code: 'channel_is_archived', retryAfterMs: undefined },
    },
    {
      name: 'a body echoing the webhook path is redacted',
      reply: answer(400, `no such hook ${PATH}`),
      expected: { outcome: 'park', status: 400, code: 'no such hook [redacted]', retryAfterMs: undefined },
    },
  ];

  it.each(statusCases)('$name', async ({ reply, expected }) => {
    replies = [reply];
    const error = await failure(sender().send(small));
    expect({
      outcome: error.outcome,
      status: error.status,
      code: error.code,
      retryAfterMs: error.retryAfterMs,
    }).toEqual(expected);
    expectNoSecret(error);
  });

  it('retries when Slack gives no answer within the timeout', async () => {
    replies = [never];
    const error = await failure(sender({ timeout: '200ms' }).send(small));
    expect({ outcome: error.outcome, code: error.code, status: error.status }).toEqual({
      outcome: 'retry',
      code: 'timeout',
      status: undefined,
    });
    expect(error.message).toContain('200 ms');
    expectNoSecret(error);
  });

  it('retries when nothing listens', async () => {
    const closed = createServer();
    const deadPort = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(sender({ webhookUrl: `http://127.0.0.1:${deadPort}${PATH}` }).send(small));
    expect({ outcome: error.outcome, code: error.code }).toEqual({ outcome: 'retry', code: 'ECONNREFUSED' });
    expectNoSecret(error);
  });

  it('parks at once when the webhook host does not exist (a wrong URL is not retried for minutes)', async () => {
    // `.invalid` never resolves (RFC 2606): the resolver answers NXDOMAIN, ENOTFOUND.
    const error = await failure(sender({ webhookUrl: `https://hooks.example.invalid${PATH}` }).send(small));
    expect({ outcome: error.outcome, code: error.code }).toEqual({ outcome: 'park', code: 'ENOTFOUND' });
    expectNoSecret(error);
  });
});

describe('Slack coalesce', () => {
  it('counts with the channel mention, as send renders with it, and sends nothing', () => {
    const groups = Array.from({ length: 40 }, (_, i) => {
      const issuer = { id: `ISS-${i}`, name: `Issuer ${i}` };
      return { issuer, events: [holderRaise(i, issuer)] };
    });
    const mention = '<!here>';
    expect(sender({ mention }).coalesce(groups)).toBe(coalesceSlack(groups, { mention }));
    expect(received).toEqual([]);
  });
});

describe('Slack verify', () => {
  it('describes the webhook by scheme and host only, without sending', async () => {
    const description = await sender().verify();
    expect(description).toBe(`webhook http://127.0.0.1:${port}/[redacted]`);
    expect(received).toEqual([]);
  });

  it('accepts an https Slack URL', async () => {
    const description = await sender({ webhookUrl: `https://hooks.slack.com${PATH}` }).verify();
    expect(description).toBe('webhook https://hooks.slack.com/[redacted]');
  });

  const invalid: { name: string; url: string }[] = [
    { name: 'plain http to another host', url: `http://hooks.slack.com${PATH}` },
    { name: 'not a URL', url: `hooks.slack.com${PATH}` },
    { name: 'another scheme', url: `ftp://hooks.slack.com${PATH}` },
    { name: 'no path', url: 'https://hooks.slack.com/' },
  ];

  it.each(invalid)('rejects $name, in verify and send, without the URL in the error', async ({ url }) => {
    const channel = sender({ webhookUrl: url });
    const fromVerify = await failure(channel.verify().then(() => undefined));
    const fromSend = await failure(channel.send(small));
    for (const error of [fromVerify, fromSend]) {
      expect({ outcome: error.outcome, code: error.code }).toEqual({
        outcome: 'park',
        code: 'invalid_webhook_url',
      });
      expectNoSecret(error);
    }
    expect(received).toEqual([]);
  });
});

describe('createSlackChannel', () => {
  it('builds a working sender from config', async () => {
    const message: Message = { type: 'test', channel: 'desk', sentAt: '2024-05-02T07:31:00Z' };
    const channel = createSlackChannel(slackConfig(), { now: NOW, memory: unusedMemory });
    try {
      await channel.send(message);
    } finally {
      await channel.close();
    }
    expect(received.map((request) => request.body)).toEqual(renderSlack(message, { timezone: 'UTC' }));
  });
});
