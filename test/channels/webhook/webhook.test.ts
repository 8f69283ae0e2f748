import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeliveryError } from '../../../src/channels/delivery-error.js';
import type { BatchMessage, IssuerEvents } from '../../../src/channels/types.js';
import { coalesceWebhook } from '../../../src/channels/webhook/coalesce.js';
import { createWebhookChannel } from '../../../src/channels/webhook/index.js';
import { channelSchema } from '../../../src/config/schema.js';
import { unusedMemory } from '../../helpers/channel-memory.js';
import { ACME, makeEvent } from '../email/fixtures.js';

const NOW = new Date('2024-11-20T07:32:00.000Z');
/** A Standard Webhooks secret as receivers are handed one: `whsec_` + base64 of 32 bytes. */
const SECRET = `whsec_${Buffer.from('shortwatch-test-signing-key-0001').toString('base64')}`;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let port: number;
let received: Received[] = [];
/** Statuses the receiver answers with, in order; 204 once they run out. */
let answers: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers.shift() ?? 204).end();
    });
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

afterEach(() => {
  received = [];
  answers = [];
});

function webhook(url = `http://127.0.0.1:${port}/in`, now: () => Date = () => NOW) {
  const config = channelSchema.parse({
    kind: 'webhook',
    name: 'hook',
    url,
    signingSecret: SECRET,
  });
  if (config.kind !== 'webhook') throw new Error('expected a webhook config');
  return createWebhookChannel(config, { now, memory: unusedMemory });
}

/** Node's headers as the plain string record a verifier takes (every header here is single-valued). */
function stringHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );
}

/**
 * The receiver's side, with the `standardwebhooks` package's own verifier, as if run at `at`: it refuses
 * a timestamp more than 5 minutes from its clock, so the clock is pinned to the one the channel signed at.
 */
function verifyAt(at: Date, body: string, headers: IncomingHttpHeaders, secret = SECRET): unknown {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    return new Webhook(secret).verify(body, stringHeaders(headers));
  } finally {
    vi.useRealTimers();
  }
}

/** The error a verification fails with, or 'verified'. */
function verdict(at: Date, body: string, headers: IncomingHttpHeaders, secret = SECRET): string {
  try {
    verifyAt(at, body, headers, secret);
    return 'verified';
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.message : String(error);
  }
}

/** One group per count, each with that many events. */
function groups(...eventCounts: number[]): IssuerEvents[] {
  return eventCounts.map((count, i) => ({
    issuer: { id: `ISS-${i}`, name: `Issuer ${i}` },
    events: Array.from({ length: count }, (_, j) => makeEvent({ id: `e-${i}-${j}` })),
  }));
}

const EVENTS_MESSAGE = { type: 'events' as const, issuer: ACME, events: [makeEvent()] };

describe('webhook channel: batch', () => {
  it('posts a batch as version 1 JSON, with the delivery id header', async () => {
    const message: BatchMessage = {
      type: 'batch',
      groups: [
        { issuer: ACME, events: [makeEvent()] },
        { issuer: { id: 'ISS-2', name: 'Beta' }, events: [makeEvent({ id: 'evt-2' })] },
      ],
    };
    await webhook().send(message, { partsSent: 0, deliveryId: 'dlv-9' });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(JSON.parse(request?.body ?? '')).toEqual({
      version: 1,
      channel: 'hook',
      sentAt: NOW.toISOString(),
      type: 'batch',
      groups: message.groups,
    });
    expect(request?.headers['x-shortwatch-delivery']).toBe('dlv-9');
  });

  it('parks at once when the host does not exist; retries when nothing listens', async () => {
    const outcome = async (url: string) => {
      try {
        await webhook(url).send(EVENTS_MESSAGE, { partsSent: 0, deliveryId: 'dlv-2' });
        return 'sent';
      } catch (error) {
        return error instanceof DeliveryError ? `${error.outcome} ${error.code}` : String(error);
      }
    };
    expect(await outcome('https://hooks.example.invalid/in')).toBe('park ENOTFOUND');
    expect(await outcome('http://127.0.0.1:1/in')).toBe('retry ECONNREFUSED');
  });
});

describe('webhook channel: Standard Webhooks signature', () => {
  it('signs the call so that the standardwebhooks verifier accepts it and returns the body', async () => {
    await webhook().send(EVENTS_MESSAGE, { partsSent: 0, deliveryId: 'd-1234abcd-0123456789abcdef01234567' });
    const [request] = received;
    if (!request) throw new Error('nothing received');
    expect(request.headers['webhook-id']).toBe('d-1234abcd-0123456789abcdef01234567');
    expect(request.headers['webhook-timestamp']).toBe(String(NOW.getTime() / 1000));
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyAt(NOW, request.body, request.headers)).toEqual(JSON.parse(request.body));
  });

  it('keeps webhook-id across a retry of the same delivery; each attempt has its own timestamp', async () => {
    let clock = NOW;
    const channel = webhook(undefined, () => clock);
    const progress = { partsSent: 0, deliveryId: 'dlv-retry' };
    answers = [503];
    const first = await channel.send(EVENTS_MESSAGE, progress).then(
      () => 'sent',
      (error: unknown) => (error instanceof DeliveryError ? error.outcome : String(error)),
    );
    expect(first).toBe('retry');
    clock = new Date(NOW.getTime() + 30_000);
    await channel.send(EVENTS_MESSAGE, progress);

    const [attempt1, attempt2] = received;
    if (!attempt1 || !attempt2) throw new Error('expected two attempts');
    expect([attempt1, attempt2].map((r) => r.headers['webhook-id'])).toEqual(['dlv-retry', 'dlv-retry']);
    expect([attempt1, attempt2].map((r) => r.headers['x-shortwatch-delivery'])).toEqual([
      'dlv-retry',
      'dlv-retry',
    ]);
    expect(attempt2.headers['webhook-timestamp']).toBe(String(clock.getTime() / 1000));
    expect(verdict(NOW, attempt1.body, attempt1.headers)).toBe('verified');
    expect(verdict(clock, attempt2.body, attempt2.headers)).toBe('verified');
  });

  it('gives a message sent outside the outbox (test-notify) an id of its own, signed too', async () => {
    const channel = webhook();
    const test = { type: 'test' as const, channel: 'hook', sentAt: NOW.toISOString() };
    await channel.send(test);
    await channel.send(test);
    const ids = received.map((r) => r.headers['webhook-id']);
    expect(ids[0]).toMatch(/^t-[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
    expect(received.map((r) => verdict(NOW, r.body, r.headers))).toEqual(['verified', 'verified']);
  });

  it.each([
    {
      name: 'a tampered body',
      tamper: (r: Received) => ({ ...r, body: r.body.replace('"value":1.23', '"value":9.23') }),
    },
    {
      name: 'a replayed body under another id',
      tamper: (r: Received) => ({ ...r, headers: { ...r.headers, 'webhook-id': 'dlv-other' } }),
    },
    {
      name: 'a moved timestamp',
      tamper: (r: Received) => ({
        ...r,
        headers: { ...r.headers, 'webhook-timestamp': String(NOW.getTime() / 1000 + 1) },
      }),
    },
  ])('fails verification for $name', async ({ tamper }) => {
    await webhook().send(EVENTS_MESSAGE, { partsSent: 0, deliveryId: 'dlv-3' });
    const [request] = received;
    if (!request) throw new Error('nothing received');
    const forged = tamper(request);
    expect(forged).not.toEqual(request);
    expect(verdict(NOW, forged.body, forged.headers)).toBe('No matching signature found');
    expect(verdict(NOW, request.body, request.headers)).toBe('verified');
  });

  it('fails verification with another secret, and when the call is too old', async () => {
    await webhook().send(EVENTS_MESSAGE, { partsSent: 0, deliveryId: 'dlv-4' });
    const [request] = received;
    if (!request) throw new Error('nothing received');
    const otherSecret = `whsec_${Buffer.from('another-receivers-signing-key-02').toString('base64')}`;
    expect(verdict(NOW, request.body, request.headers, otherSecret)).toBe('No matching signature found');
    const later = new Date(NOW.getTime() + 6 * 60_000);
    expect(verdict(later, request.body, request.headers)).toBe('Message timestamp too old');
  });

  it('names the scheme, never the secret or the URL path, in verify()', async () => {
    const text = await webhook(`http://127.0.0.1:${port}/in/tok-5555`).verify();
    expect(text).toBe(`webhook POST to http://127.0.0.1:${port} (path redacted), signed (Standard Webhooks)`);
    expect(text).not.toContain(SECRET.slice(6, 20));
  });
});

describe('coalesceWebhook', () => {
  it.each([
    { name: 'no groups', input: groups(), expected: 0 },
    { name: 'small groups all fit', input: groups(1, 2, 3), expected: 3 },
    { name: 'exactly the cap', input: groups(50, 50), expected: 2 },
    { name: 'one event over the cap waits', input: groups(50, 50, 1), expected: 2 },
    { name: 'a group past the cap waits', input: groups(60, 41), expected: 1 },
    { name: 'a first group over the cap still goes', input: groups(150, 1), expected: 1 },
    {
      name: '300 single-event groups',
      input: groups(...Array.from({ length: 300 }, () => 1)),
      expected: 100,
    },
  ])('$name → $expected', ({ input, expected }) => {
    expect(coalesceWebhook(input)).toBe(expected);
    expect(webhook().coalesce(input)).toBe(expected);
  });
});
