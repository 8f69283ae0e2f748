import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import {
  BodyTooLargeError,
  createUpstreamClient,
  InvalidRequestError,
  IssuerNotFoundError,
  NoApiAccessError,
  RateLimitedError,
  type ResponseInfo,
  SchemaError,
  ServerError,
  UnauthorizedError,
  UnexpectedStatusError,
  type UpstreamClientOptions,
  type UpstreamError,
  UpstreamNetworkError,
  UpstreamTimeoutError,
} from '../../src/upstream/index.js';
import { expectFailure } from './expect-failure.js';
import { reply, type StubServer, startStub } from './stub-server.js';

const KEY = 'stub-secret-key-123';
const ISSUERS = { data: [{ svc_issuer_id: 'ISS-1', name: 'Acme' }], last_updated: '2025-01-15T08:00:00Z' };

let stub: StubServer | undefined;
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await stub?.close();
  stub = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<StubServer> {
  stub = await startStub(handler);
  return stub;
}

function clientFor(url: string, overrides: Partial<UpstreamClientOptions> = {}) {
  const seen: ResponseInfo[] = [];
  const client = createUpstreamClient({
    baseUrl: url,
    apiKey: new Secret(KEY),
    timeoutMs: 2_000,
    maxBodyBytes: 64 * 1024,
    retries: 0,
    retryDelayMs: 1,
    sleep: async () => {},
    afterResponse: (info) => {
      seen.push(info);
    },
    ...overrides,
  });
  closers.push(() => client.close());
  return { client, seen };
}

function failure<E extends UpstreamError>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  return expectFailure(promise, type, KEY);
}

describe('upstream client over plain HTTP', () => {
  it('sends GET with the bearer key and accept header, under the base URL path prefix', async () => {
    const server = await serve((_req, res) => reply(res, 200, ISSUERS));
    const { client } = clientFor(`${server.url}/api/v1/`);
    await expect(client.listIssuers()).resolves.toEqual(ISSUERS);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/api/v1/issuers');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers.accept).toBe('application/json');
  });

  it.each<[string, number, string, new (...args: never[]) => UpstreamError]>([
    ['401 with a plain-text body', 401, 'Unauthorized', UnauthorizedError],
    ['403 with an empty body', 403, '', NoApiAccessError],
    ['404 with an HTML page', 404, '<html><body>Not Found</body></html>', IssuerNotFoundError],
    ['400 with a JSON array', 400, '[1,2]', InvalidRequestError],
    ['500 with a truncated JSON body', 500, '{"error":', ServerError],
    ['429 with JSON null', 429, 'null', RateLimitedError],
    ['418 with text', 418, "I'm a teapot", UnexpectedStatusError],
  ])('classifies %s without a usable body', async (_name, status, body, type) => {
    const server = await serve((_req, res) => reply(res, status, body, { 'content-type': 'text/plain' }));
    const { client } = clientFor(server.url);
    const error = await failure(client.getPositions('ISS-1'), type);
    expect(error.status).toBe(status);
    expect(error.code).toBeUndefined();
    expect(error.operation).toBe('positions');
    expect(error.path).toBe('/issuers/ISS-1/positions?status=active');
    expect(error.message).toBe(`GET /issuers/ISS-1/positions?status=active answered ${status}`);
  });

  it('keeps the fields that are present and of the right type', async () => {
    const body = { error: 42, message: 'Try later.', limit: '1000', window: 'day' };
    const server = await serve((_req, res) => reply(res, 429, body));
    const { client } = clientFor(server.url);
    const error = await failure(client.listIssuers(), RateLimitedError);
    expect([error.code, error.message, error.limit, error.window]).toEqual([
      undefined,
      'Try later.',
      undefined,
      'day',
    ]);
  });

  it('gives a 429 without body fields or Retry-After undefined details', async () => {
    const server = await serve((_req, res) => reply(res, 429, {}));
    const { client } = clientFor(server.url);
    const error = await failure(client.listIssuers(), RateLimitedError);
    const { limit, window, retryAfterMs, code } = error;
    expect({ limit, window, retryAfterMs, code }).toEqual({
      limit: undefined,
      window: undefined,
      retryAfterMs: undefined,
      code: undefined,
    });
  });

  it("reads an HTTP-date Retry-After against the response's own Date, not this host's clock", async () => {
    // This host's clock is an hour off; the server's Date says 12:00:00, Retry-After 12:00:42.
    const now = Date.UTC(2025, 0, 15, 13, 0, 0);
    const server = await serve((_req, res) =>
      reply(
        res,
        429,
        { error: 'rate_limit_exceeded', message: 'Slow down.', limit: 100, window: 'minute' },
        { 'retry-after': 'Wed, 15 Jan 2025 12:00:42 GMT', date: 'Wed, 15 Jan 2025 12:00:00 GMT' },
      ),
    );
    const { client } = clientFor(server.url, { now: () => now });
    const error = await failure(client.listIssuers(), RateLimitedError);
    expect(error.retryAfterMs).toBe(42_000);
    expect(error.code).toBe('rate_limit_exceeded');
  });

  it('treats a 404 from the issuer list as an unexpected status, not a missing issuer', async () => {
    const server = await serve((_req, res) =>
      reply(res, 404, { error: 'not_found', message: 'No such route.' }),
    );
    const { client } = clientFor(server.url);
    const error = await failure(client.listIssuers(), UnexpectedStatusError);
    expect(error.code).toBe('not_found');
  });

  it('does not follow redirects', async () => {
    const server = await serve((_req, res) => reply(res, 302, '', { location: '/elsewhere' }));
    const { client } = clientFor(server.url);
    await failure(client.listIssuers(), UnexpectedStatusError);
    expect(server.requests).toHaveLength(1);
  });

  it('redacts the key when the service echoes it in a message', async () => {
    const server = await serve((_req, res) =>
      reply(res, 401, { error: 'unauthorized', message: `Key ${KEY} is not valid.` }),
    );
    const { client } = clientFor(server.url);
    const error = await failure(client.listIssuers(), UnauthorizedError);
    expect(error.message).toBe('Key [redacted] is not valid.');
  });

  it.each<[string, string | Buffer]>([
    ['an empty body', ''],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['HTML', '<html></html>'],
  ])('rejects a 200 with %s as SchemaError', async (_name, body) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const { client, seen } = clientFor(server.url);
    const error = await failure(client.listIssuers(), SchemaError);
    expect(error.summary).toBe('body is not valid JSON');
    expect(seen.map((info) => info.status)).toEqual([200]);
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    const text = JSON.stringify(ISSUERS);
    const server = await serve((_req, res) => reply(res, 200, text));
    const { client } = clientFor(server.url, { maxBodyBytes: Buffer.byteLength(text) });
    await expect(client.listIssuers()).resolves.toEqual(ISSUERS);
  });

  it('rejects a declared content-length over the cap without reading the body', async () => {
    const text = JSON.stringify(ISSUERS);
    const server = await serve((_req, res) => reply(res, 200, text));
    const { client } = clientFor(server.url, { maxBodyBytes: Buffer.byteLength(text) - 1 });
    const error = await failure(client.listIssuers(), BodyTooLargeError);
    expect(error.status).toBe(200);
  });

  it.each<[string, boolean]>([
    ['the default agent (maxResponseSize)', false],
    ['an injected agent without a cap (counted while reading)', true],
  ])('rejects a chunked body over the cap with %s', async (_name, inject) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      res.write(`${'{"svc_issuer_id":"X","name":"Y"},'.repeat(2_000)}`);
      res.end('{"svc_issuer_id":"X","name":"Y"}],"last_updated":null}');
    });
    const dispatcher = inject ? new Agent() : undefined;
    if (dispatcher) closers.push(() => dispatcher.close());
    const { client } = clientFor(server.url, { maxBodyBytes: 4_096, dispatcher });
    const error = await failure(client.listIssuers(), BodyTooLargeError);
    expect(error.maxBodyBytes).toBe(4_096);
  });

  it('retries a dropped connection and reports it as a network error', async () => {
    const server = await serve((req) => req.socket.destroy());
    const { client, seen } = clientFor(server.url, { retries: 2 });
    await failure(client.listIssuers(), UpstreamNetworkError);
    expect(server.requests).toHaveLength(3);
    expect(seen.map((info) => [info.attempt, info.status])).toEqual([
      [1, 'network'],
      [2, 'network'],
      [3, 'network'],
    ]);
  });

  it('reports a body cut off mid-way as a network error', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"data":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { client } = clientFor(server.url);
    await failure(client.listIssuers(), UpstreamNetworkError);
  });

  it('reports a refused connection as a network error', async () => {
    const server = await serve(() => {});
    const { url } = server;
    await server.close();
    stub = undefined;
    const { client } = clientFor(url);
    await failure(client.listIssuers(), UpstreamNetworkError);
  });

  it('times out a body that stalls after the headers, once per attempt', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    const { client, seen } = clientFor(server.url, { timeoutMs: 150, retries: 1 });
    const error = await failure(client.listIssuers(), UpstreamTimeoutError);
    expect(error.timeoutMs).toBe(150);
    expect(seen.map((info) => info.status)).toEqual(['timeout', 'timeout']);
    expect(server.requests).toHaveLength(2);
  });

  it('propagates an afterResponse failure unchanged', async () => {
    const server = await serve((_req, res) => reply(res, 200, ISSUERS));
    const boom = new Error('metrics down');
    const { client } = clientFor(server.url, {
      afterResponse: () => {
        throw boom;
      },
    });
    await expect(client.listIssuers()).rejects.toBe(boom);
  });

  it('leaves an injected dispatcher open on close()', async () => {
    const server = await serve((_req, res) => reply(res, 200, ISSUERS));
    const dispatcher = new Agent();
    closers.push(() => dispatcher.close());
    const { client } = clientFor(server.url, { dispatcher });
    await client.close();
    expect(dispatcher.closed).toBe(false);
    await expect(client.listIssuers()).resolves.toEqual(ISSUERS);
  });

  it.each<[string, Partial<UpstreamClientOptions>]>([
    ['a non-HTTP base URL', { baseUrl: 'ftp://example.com' }],
    ['a base URL that is no URL', { baseUrl: 'not a url' }],
    ['a zero timeout', { timeoutMs: 0 }],
    ['a fractional body cap', { maxBodyBytes: 1.5 }],
    ['negative retries', { retries: -1 }],
  ])('refuses %s at creation', (_name, overrides) => {
    expect(() =>
      createUpstreamClient({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: new Secret(KEY),
        timeoutMs: 1_000,
        maxBodyBytes: 1_000,
        retries: 0,
        retryDelayMs: 0,
        ...overrides,
      }),
    ).toThrow();
  });
});
