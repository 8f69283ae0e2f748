import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryError, isDeliveryError } from '../../../src/channels/delivery-error.js';
import { createSender } from '../../../src/channels/registry.js';
import {
  createTeamsSender,
  renderTeams,
  type TeamsChannelConfig,
  type TeamsPayload,
  type TeamsSender,
} from '../../../src/channels/teams/index.js';
import type { EventsMessage, Message } from '../../../src/channels/types.js';
import { channelSchema } from '../../../src/config/schema.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, holderRaise, raises } from '../story-fixtures.js';

const SIG = 'S3cr3tSignatureValue0123456789abcdef';
const PATH = '/workflows/4f1c0de5/triggers/manual/paths/invoke';
const QUERY = `?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`;
const NOW = () => new Date('2024-05-02T07:31:00Z');

/** A Teams stand-in: records each request; answers the next queued reply, else `reply(body)`. */
type Reply = (res: ServerResponse) => void;
interface Received {
  url: string | undefined;
  contentType: string | undefined;
  bytes: number;
  body: TeamsPayload;
}
let server: Server;
let port: number;
let received: Received[] = [];
let replies: Reply[] = [];
let limit = Number.POSITIVE_INFINITY;

const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Reply =>
  (res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
const accepted = answer(202);
const never: Reply = () => {};

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const raw = await readBody(req);
    received.push({
      url: req.url,
      contentType: req.headers['content-type'],
      bytes: raw.length,
      body: JSON.parse(raw.toString('utf8')),
    });
    // Like Teams: a body over the size limit is refused before anything else is looked at.
    if (raw.length > limit) return answer(413, '{"error":{"code":"RequestEntityTooLarge"}}')(res);
    (replies.shift() ?? accepted)(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  port = address.port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const senders: TeamsSender[] = [];
afterEach(async () => {
  received = [];
  replies = [];
  limit = Number.POSITIVE_INFINITY;
  await Promise.all(senders.splice(0).map((sender) => sender.close()));
  server.closeAllConnections();
});

function teamsConfig(fields: Record<string, unknown> = {}): TeamsChannelConfig {
  const config = channelSchema.parse({
    kind: 'teams',
    name: 'desk',
    webhookUrl: `http://127.0.0.1:${port}${PATH}${QUERY}`,
    timeout: '2s',
    ...fields,
  });
  if (config.kind !== 'teams') throw new Error('expected a teams config');
  return config;
}

function sender(fields: Record<string, unknown> = {}, sleeps: number[] = []): TeamsSender {
  const created = createTeamsSender(teamsConfig(fields), {
    now: NOW,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  senders.push(created);
  return created;
}

const small: EventsMessage = { type: 'events', issuer: ACME, events: [holderRaise(1)] };
const large: EventsMessage = { type: 'events', issuer: ACME, events: raises(300) };

const titles = () => received.map((r) => r.body.attachments[0].content.body[0]?.text);
/** Holders in the event lines of every request Teams accepted, in arrival order. */
function holdersDelivered(): string[] {
  return received
    .filter((r) => r.bytes <= limit)
    .flatMap((r) => r.body.attachments[0].content.body.map((block) => block.text))
    .flatMap((text) => /^⬆️ \*\*(Holder \d+) /.exec(text)?.[1] ?? []);
}

async function failure(send: Promise<unknown>): Promise<DeliveryError> {
  const error = await send.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isDeliveryError(error)) throw new Error(`expected a DeliveryError, got ${String(error)}`);
  return error;
}

function expectNoSecret(error: DeliveryError): void {
  const printed = [error.message, error.stack, error.code, String(error.cause), JSON.stringify(error)].join();
  for (const secret of [SIG, QUERY, PATH]) expect(printed).not.toContain(secret);
}

describe('Teams sender', () => {
  it.each([200, 202])('posts the rendered card as JSON and takes %i as delivered', async (status) => {
    replies.push(answer(status));
    await sender().send(small, { partsSent: 0, deliveryId: 'd-1' });
    expect(received).toHaveLength(1);
    expect(received[0]?.url).toBe(`${PATH}${QUERY}`);
    expect(received[0]?.contentType).toBe('application/json');
    expect(received[0]?.body).toEqual(renderTeams(small, { deliveryId: 'd-1', timezone: 'UTC' })[0]);
  });

  it('shows the delivery id in the card, the same on every attempt', async () => {
    const teams = sender();
    await teams.send(small, { partsSent: 0, deliveryId: 'd-abc' });
    await teams.send(small, { partsSent: 0, deliveryId: 'd-abc' });
    const last = received.map((r) => r.body.attachments[0].content.body.at(-1)?.text);
    expect(last).toEqual(['Delivery d-abc', 'Delivery d-abc']);
  });

  it('sends a long message as several cards in order, at most 4 requests a second', async () => {
    const sleeps: number[] = [];
    const sent: number[] = [];
    await sender({}, sleeps).send(large, {
      partsSent: 0,
      deliveryId: 'd-1',
      onPartSent: async (count) => {
        sent.push(count);
      },
    });
    const total = received.length;
    expect(total).toBeGreaterThan(1);
    expect(titles()).toEqual(received.map((_, i) => `Acme plc (${i + 1}/${total})`));
    expect(holdersDelivered()).toEqual(large.events.map((_, i) => `Holder ${i}`));
    expect(sent).toEqual(received.map((_, i) => i + 1));
    // The clock stands still here, so each request after the first waits the whole gap.
    expect(sleeps).toEqual(received.slice(1).map(() => 250));
  });

  it('spaces requests by the configured rate across messages too', async () => {
    const sleeps: number[] = [];
    const teams = sender({ ratePerSecond: 2 }, sleeps);
    await teams.send(small);
    await teams.send(small);
    expect(received).toHaveLength(2);
    expect(sleeps).toEqual([500]);
  });

  it('resumes a split message after the parts already sent', async () => {
    const all = renderTeams(large, { deliveryId: 'd-1' });
    await sender().send(large, { partsSent: 1, deliveryId: 'd-1' });
    expect(received.map((r) => r.body)).toEqual(all.slice(1));
  });

  it('a 429 with Retry-After pauses the channel; the retry resumes where it stopped', async () => {
    const teams = sender();
    replies.push(accepted, answer(429, '', { 'retry-after': '7' }));
    const sent: number[] = [];
    const onPartSent = async (count: number) => {
      sent.push(count);
    };
    const error = await failure(teams.send(large, { partsSent: 0, deliveryId: 'd-1', onPartSent }));
    expect(error).toMatchObject({ outcome: 'rate-limit', status: 429, retryAfterMs: 7000 });
    expect(error.message).toBe(`Teams webhook answered 429 http_429 (part 2/${renderTeams(large).length})`);
    expect(sent).toEqual([1]);

    received = [];
    await teams.send(large, { partsSent: 1, deliveryId: 'd-1', onPartSent });
    expect(holdersDelivered()[0]).toBe(titleHolder(renderTeams(large, { deliveryId: 'd-1' })[1]));
    expect(sent.at(-1)).toBe(renderTeams(large).length);
  });

  it.each([
    // Measured from the answer's own Date: both are Teams' clock.
    [
      'an HTTP date',
      { 'retry-after': 'Thu, 02 May 2024 07:31:30 GMT', date: 'Thu, 02 May 2024 07:31:00 GMT' },
      30_000,
    ],
    ['nothing usable', { 'retry-after': 'soon' }, 1000],
    ['no header', {}, 1000],
  ])('a 429 with %s waits that long', async (_name, headers, wait) => {
    replies.push(answer(429, '', headers));
    const error = await failure(sender().send(small));
    expect(error).toMatchObject({ outcome: 'rate-limit', retryAfterMs: wait });
  });

  it('a 413 splits the refused card in halves until each fits; every event arrives once', async () => {
    // 40 events make a card of about 6.9 kB and halves of about 3.7 kB: both refused, quarters accepted.
    limit = 3_000;
    const sent: number[] = [];
    const message: EventsMessage = { type: 'events', issuer: ACME, events: raises(40) };
    await sender().send(message, {
      partsSent: 0,
      deliveryId: 'd-1',
      onPartSent: async (count) => {
        sent.push(count);
      },
    });
    expect(received[0]?.bytes).toBeGreaterThan(limit);
    expect(received.filter((r) => r.bytes > limit).length).toBeGreaterThan(1);
    expect(holdersDelivered()).toEqual(message.events.map((_, i) => `Holder ${i}`));
    // Halves are labelled within the one message Teams refused: 1/2, then 1a/2, 1b/2, …
    expect(titles().filter((_, i) => (received[i]?.bytes ?? 0) <= limit)[0]).toMatch(/^Acme plc \(1a+\/2\)$/);
    expect(sent).toEqual([1]);
  });

  it('a 413 for a card of one entry parks with a clear error', async () => {
    limit = 100;
    const error = await failure(sender().send(small));
    expect(error).toMatchObject({ outcome: 'park', status: 413, code: 'too_large' });
    expect(error.message).toMatch(
      /^Teams webhook answered 413: a card of one entry \(\d+ bytes\) is too large/,
    );
    // One event under its heading: nothing to halve, so nothing is sent again.
    expect(received).toHaveLength(1);
  });

  it.each([
    [400, '{"error":{"code":"InvalidTemplate","message":"bad card"}}', 'park', 'InvalidTemplate'],
    [401, '{"error":{"code":"DirectApiAuthorizationRequired"}}', 'park', 'DirectApiAuthorizationRequired'],
    [404, '{"error":{"code":"WorkflowNotFound"}}', 'park', 'WorkflowNotFound'],
    [408, '', 'retry', 'http_408'],
    [500, '<html>oops</html>', 'retry', 'http_500'],
    [503, '', 'retry', 'http_503'],
  ])('answers %i → %s', async (status, body, outcome, code) => {
    replies.push(answer(status, body));
    const error = await failure(sender().send(small));
    expect(error).toMatchObject({ outcome, status, code });
    expect(error.message).toBe(`Teams webhook answered ${status} ${code}`);
  });

  it('never shows the signed URL, even when an error body echoes it', async () => {
    const url = `http://127.0.0.1:${port}${PATH}${QUERY}`;
    replies.push(answer(400, JSON.stringify({ error: { code: `Bad${SIG}`, message: url } })));
    const error = await failure(sender().send(small));
    expect(error.code).toBe('Bad[redacted]');
    expectNoSecret(error);
    const check = await sender().verify();
    expect(check).toBe(`Teams webhook http://127.0.0.1:${port}/[redacted]`);
  });

  it('a timeout is retried', async () => {
    replies.push(never);
    const error = await failure(sender({ timeout: '300ms' }).send(small));
    expect(error).toMatchObject({ outcome: 'retry', code: 'timeout' });
    expect(error.message).toBe('Teams webhook gave no response within 300 ms');
  });

  it('a refused connection is retried; a URL that cannot work is parked', async () => {
    const closed = await failure(sender({ webhookUrl: `http://127.0.0.1:1${PATH}${QUERY}` }).send(small));
    expect(closed).toMatchObject({ outcome: 'retry', code: 'ECONNREFUSED' });
    expectNoSecret(closed);
    const plain = sender({ webhookUrl: `http://example.com${PATH}${QUERY}` });
    const error = await failure(plain.send(small));
    expect(error).toMatchObject({ outcome: 'park', code: 'invalid_webhook_url' });
    await expect(plain.verify()).rejects.toThrow(/must use https/);
    expect(received).toHaveLength(0);
  });

  it('is what the registry builds for kind: teams, and test-notify posts through it', async () => {
    const built = createSender(teamsConfig(), { now: NOW, memory: unusedMemory });
    try {
      const message: Message = { type: 'test', channel: 'desk', sentAt: NOW().toISOString() };
      await built.send(message);
    } finally {
      await built.close();
    }
    expect(titles()).toEqual(['🧪 shortwatch test message — not a real alert']);
  });
});

describe('teams config', () => {
  it('defaults to 4 requests a second and refuses more, naming the key', () => {
    expect(teamsConfig().ratePerSecond).toBe(4);
    const result = channelSchema.safeParse({
      kind: 'teams',
      name: 'x',
      webhookUrl: 'https://a/b',
      ratePerSecond: 5,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['ratePerSecond']);
  });

  it('keeps the webhook URL secret', () => {
    const config = teamsConfig();
    expect(JSON.stringify(config)).not.toContain(SIG);
    expect(String(config.webhookUrl)).toBe('[redacted]');
  });
});

/** The first holder of a card's event lines. */
function titleHolder(payload: TeamsPayload | undefined): string | undefined {
  const texts = payload?.attachments[0].content.body.map((block) => block.text) ?? [];
  return texts.flatMap((text) => /^⬆️ \*\*(Holder \d+) /.exec(text)?.[1] ?? [])[0];
}
