import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Secret } from '../../src/config/secret.js';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  BodyTooLargeError,
  createUpstreamClient,
  InvalidRequestError,
  IssuerNotFoundError,
  NoApiAccessError,
  RateLimitedError,
  type RequestInfo,
  type ResponseInfo,
  SchemaError,
  ServerError,
  UnauthorizedError,
  type UpstreamClient,
  type UpstreamClientOptions,
  type UpstreamError,
  UpstreamTimeoutError,
} from '../../src/upstream/index.js';
import { expectFailure, findSecret } from './expect-failure.js';

const KEY = 'sandbox-key';
const NO_API_KEY = 'sandbox-no-api';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

let sandbox: Sandbox;
const clients: UpstreamClient[] = [];

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await sandbox.close();
});

/** A client on the sandbox that records hooks and backoff sleeps instead of waiting. */
function connect(overrides: Partial<UpstreamClientOptions> & { key?: string } = {}) {
  const before: RequestInfo[] = [];
  const after: ResponseInfo[] = [];
  const sleeps: number[] = [];
  const { key = KEY, ...rest } = overrides;
  const client = createUpstreamClient({
    baseUrl: sandbox.url,
    apiKey: new Secret(key),
    timeoutMs: 2_000,
    maxBodyBytes: 1024 * 1024,
    retries: 2,
    retryDelayMs: 100,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    beforeRequest: async (info) => {
      before.push(info);
    },
    afterResponse: (info) => {
      after.push(info);
    },
    ...rest,
  });
  clients.push(client);
  return { client, before, after, sleeps };
}

function failure<E extends UpstreamError>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
  key = KEY,
): Promise<E> {
  return expectFailure(promise, type, key);
}

describe('upstream client against the sandbox: success', () => {
  it('lists the issuers as the sandbox holds them', async () => {
    const { client, after } = connect();
    const list = await client.listIssuers();
    expect(list.data).toEqual(sandbox.scenario.issuers());
    expect(list.last_updated).toBe(sandbox.scenario.lastUpdated());
    expect(after.map((info) => [info.operation, info.path, info.status])).toEqual([
      ['issuers', '/issuers', 200],
    ]);
  });

  it('returns the active positions by default and the full history with status=all', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'ISS-T', name: 'Test Issuer' });
    sandbox.scenario.disclose('ISS-T', 'Alpha Capital', 0.7, '2026-01-05');
    sandbox.scenario.disclose('ISS-T', 'Alpha Capital', 0.9, '2026-01-06');
    sandbox.scenario.disclose('ISS-T', 'Beta Fund', 1.25, '2026-01-06');
    const { client, after } = connect();

    const active = await client.getPositions('ISS-T');
    expect(active.issuer).toEqual({ svc_issuer_id: 'ISS-T', name: 'Test Issuer' });
    expect(active.status).toBe('active');
    expect(sortRows(active.data)).toEqual([
      { date: '2026-01-06', value: 0.9, position_holder: 'Alpha Capital' },
      { date: '2026-01-06', value: 1.25, position_holder: 'Beta Fund' },
    ]);

    const all = await client.getPositions('ISS-T', 'all');
    expect(all.status).toBe('all');
    expect(sortRows(all.data)).toEqual(sortRows(sandbox.scenario.all('ISS-T') ?? []));
    expect(all.data).toHaveLength(3);
    expect(after.map((info) => info.path)).toEqual([
      '/issuers/ISS-T/positions?status=active',
      '/issuers/ISS-T/positions?status=all',
    ]);
  });

  it('passes last_updated: null through', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'ISS-N', name: 'Null Co' });
    sandbox.scenario.setLastUpdated(null);
    const { client } = connect();
    expect((await client.listIssuers()).last_updated).toBeNull();
    expect((await client.getPositions('ISS-N')).last_updated).toBeNull();
  });

  it.each<[string, string, string]>([
    ['a slash', 'ISS/1', '/issuers/ISS%2F1/positions?status=active'],
    ['spaces', 'Big Issuer SA', '/issuers/Big%20Issuer%20SA/positions?status=active'],
    [
      'unicode',
      'Société Générale 📉',
      '/issuers/Soci%C3%A9t%C3%A9%20G%C3%A9n%C3%A9rale%20%F0%9F%93%89/positions?status=active',
    ],
    ['query characters', 'a?status=all&b#c', '/issuers/a%3Fstatus%3Dall%26b%23c/positions?status=active'],
  ])('encodes an issuer id with %s into one path segment', async (_name, id, path) => {
    sandbox.scenario.addIssuer({ svc_issuer_id: id, name: `Name of ${id}` });
    sandbox.scenario.disclose(id, 'Gamma LP', 2.5);
    const { client, after } = connect();
    const result = await client.getPositions(id);
    expect(result.issuer.svc_issuer_id).toBe(id);
    expect(result.data.map((row) => row.position_holder)).toEqual(['Gamma LP']);
    expect(after.map((info) => info.path)).toEqual([path]);
    expect(sandbox.stats.count({ issuerId: id, status: 200 })).toBe(1);
  });
});

describe('upstream client against the sandbox: error statuses', () => {
  it('gives UnauthorizedError with the body code and message for a wrong key, without retrying', async () => {
    const wrongKey = 'wrong-key-0123';
    const { client, after } = connect({ key: wrongKey });
    const error = await failure(client.listIssuers(), UnauthorizedError, wrongKey);
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('Invalid or missing API key.');
    expect(error.operation).toBe('issuers');
    expect(error.path).toBe('/issuers');
    expect(after.map((info) => info.status)).toEqual([401]);
    expect(sandbox.stats.count({ status: 401 })).toBe(1);
  });

  it('gives NoApiAccessError on both operations for a key without API access', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'ISS-1', name: 'One' });
    const { client } = connect({ key: NO_API_KEY });
    for (const call of [() => client.listIssuers(), () => client.getPositions('ISS-1')]) {
      const error = await failure(call(), NoApiAccessError, NO_API_KEY);
      expect(error.status).toBe(403);
    }
    expect(sandbox.stats.count({ status: 403 })).toBe(2);
  });

  it('gives IssuerNotFoundError for an unknown issuer, without retrying', async () => {
    const { client } = connect();
    const error = await failure(client.getPositions('NO-SUCH-ISSUER'), IssuerNotFoundError);
    expect(error.status).toBe(404);
    expect(error.issuerId).toBe('NO-SUCH-ISSUER');
    expect(error.path).toBe('/issuers/NO-SUCH-ISSUER/positions?status=active');
    expect(sandbox.stats.count({ status: 404 })).toBe(1);
  });

  it('gives InvalidRequestError for a 400, without retrying', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'ISS-1', name: 'One' });
    sandbox.faults.inject({ operation: 'positions', status: 400, times: 1 });
    const { client } = connect();
    const error = await failure(client.getPositions('ISS-1'), InvalidRequestError);
    expect(error.status).toBe(400);
    expect(sandbox.stats.count({ status: 400 })).toBe(1);
  });

  it.each<[string, 'minute' | 'day', number]>([
    ['per-minute', 'minute', 100],
    ['daily', 'day', 1000],
  ])(
    'gives RateLimitedError with limit, window and Retry-After for the %s limit',
    async (_name, window, limit) => {
      sandbox.faults.rateLimit(window, { retryAfterSeconds: 37 });
      const { client, sleeps } = connect();
      const error = await failure(client.listIssuers(), RateLimitedError);
      expect(error.status).toBe(429);
      expect(error.code).toBe('rate_limit_exceeded');
      expect({ window: error.window, limit: error.limit, retryAfterMs: error.retryAfterMs }).toEqual({
        window,
        limit,
        retryAfterMs: 37_000,
      });
      expect(sleeps).toEqual([]);
      expect(sandbox.stats.count({ status: 429 })).toBe(1);
    },
  );

  it('hits the real per-minute limit of the sandbox and stops there', async () => {
    await sandbox.close();
    sandbox = await startSandbox({
      port: 0,
      limits: { perMinute: 2, perDay: 1000, minuteMs: 60_000, dayMs: 86_400_000 },
    });
    const { client } = connect();
    await client.listIssuers();
    await client.listIssuers();
    const error = await failure(client.listIssuers(), RateLimitedError);
    expect(error.limit).toBe(2);
    expect(error.window).toBe('minute');
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(sandbox.stats.count({ status: 429 })).toBe(1);
  });
});

describe('upstream client against the sandbox: retries', () => {
  it('retries 500s with jittered exponential backoff, then succeeds', async () => {
    sandbox.faults.inject({ operation: 'issuers', status: 500, times: 2 });
    const { client, before, after, sleeps } = connect();
    const list = await client.listIssuers();
    expect(list.data).toEqual(sandbox.scenario.issuers());
    expect(sandbox.stats.count({ status: 500 })).toBe(2);
    expect(sandbox.stats.count({ status: 200 })).toBe(1);
    expect(before.map((info) => info.attempt)).toEqual([1, 2, 3]);
    expect(after.map((info) => [info.attempt, info.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(after[0]?.error).toBeInstanceOf(ServerError);
    // retryDelayMs 100 x 2^n x random 0.5
    expect(sleeps).toEqual([50, 100]);
  });

  it('gives ServerError once retries are exhausted, after exactly retries + 1 requests', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'ISS-1', name: 'One' });
    sandbox.faults.inject({ operation: 'positions', status: 503, times: 10 });
    const { client, after } = connect({ retries: 3 });
    const error = await failure(client.getPositions('ISS-1'), ServerError);
    expect(error.status).toBe(503);
    expect(sandbox.stats.count({ operation: 'positions' })).toBe(4);
    expect(after.map((info) => info.status)).toEqual([503, 503, 503, 503]);
  });

  it('retries a response slower than timeoutMs, then succeeds', async () => {
    // The retry's answer must beat the timeout on a loaded machine too: a second, not 150 ms.
    sandbox.faults.inject({ operation: 'issuers', delayMs: 10_000, times: 1 });
    const { client, after } = connect({ timeoutMs: 1_000, retries: 1 });
    await client.listIssuers();
    expect(after.map((info) => info.status)).toEqual(['timeout', 200]);
  });

  it('fails with UpstreamTimeoutError when every attempt is too slow', async () => {
    sandbox.faults.inject({ operation: 'issuers', delayMs: 600, times: 5 });
    const { client, after } = connect({ timeoutMs: 150, retries: 2 });
    const error = await failure(client.listIssuers(), UpstreamTimeoutError);
    expect(error.timeoutMs).toBe(150);
    expect(after.map((info) => info.status)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(after.every((info) => info.error instanceof UpstreamTimeoutError)).toBe(true);
  });
});

describe('upstream client against the sandbox: bodies', () => {
  it.each<[string, 'malformed' | 'schema']>([
    ['malformed JSON', 'malformed'],
    ['a schema-violating body', 'schema'],
  ])('gives SchemaError for %s, without retrying', async (_name, body) => {
    sandbox.faults.inject({ operation: 'issuers', body, times: 1 });
    const { client, after } = connect();
    const error = await failure(client.listIssuers(), SchemaError);
    expect(error.status).toBe(200);
    expect(error.summary.length).toBeGreaterThan(0);
    expect(error.summary.length).toBeLessThanOrEqual(300);
    expect(after.map((info) => info.status)).toEqual([200]);
    expect(sandbox.stats.count({ operation: 'issuers' })).toBe(1);
  });

  it('names the failing field of a body that breaks the schema', async () => {
    sandbox.faults.inject({
      operation: 'issuers',
      body: { data: [{ name: 'no id' }], last_updated: null },
      times: 1,
    });
    const { client } = connect();
    const error = await failure(client.listIssuers(), SchemaError);
    expect(error.summary).toContain('data[0].svc_issuer_id');
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    sandbox.faults.inject({ operation: 'issuers', bytes: 2_000, times: 1 });
    const { client } = connect({ maxBodyBytes: 2_000 });
    const list = await client.listIssuers();
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.last_updated).toBeNull();
  });

  it('gives BodyTooLargeError for a body over maxBodyBytes', async () => {
    sandbox.faults.inject({ operation: 'issuers', bytes: 50_000, times: 1 });
    const { client } = connect({ maxBodyBytes: 2_000 });
    const error = await failure(client.listIssuers(), BodyTooLargeError);
    expect(error.maxBodyBytes).toBe(2_000);
    expect(sandbox.stats.count({ operation: 'issuers' })).toBe(1);
  });
});

describe('upstream client against the sandbox: hooks', () => {
  it('propagates a beforeRequest error unchanged and sends nothing', async () => {
    const refused = new Error('budget exhausted');
    const { client, after } = connect({
      beforeRequest: async () => {
        throw refused;
      },
    });
    await expect(client.listIssuers()).rejects.toBe(refused);
    await expect(client.getPositions('ISS-1')).rejects.toBe(refused);
    expect(sandbox.stats.count({})).toBe(0);
    expect(after).toEqual([]);
  });

  it('stops mid-retry when beforeRequest refuses a later attempt', async () => {
    sandbox.faults.inject({ operation: 'issuers', status: 500, times: 5 });
    const refused = new Error('no budget for a retry');
    const attempts: number[] = [];
    const { client } = connect({
      beforeRequest: async (info) => {
        attempts.push(info.attempt);
        if (info.attempt === 2) throw refused;
      },
    });
    await expect(client.listIssuers()).rejects.toBe(refused);
    expect(attempts).toEqual([1, 2]);
    expect(sandbox.stats.count({ operation: 'issuers' })).toBe(1);
  });

  it('never exposes the key in the info handed to the hooks', async () => {
    sandbox.faults.inject({ operation: 'issuers', status: 500, times: 1 });
    const { client, before, after } = connect();
    await client.listIssuers();
    expect(findSecret(before, KEY)).toEqual([]);
    expect(findSecret(after, KEY)).toEqual([]);
  });
});

function sortRows<T extends { position_holder: string; date: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) =>
    a.position_holder === b.position_holder
      ? a.date.localeCompare(b.date)
      : a.position_holder.localeCompare(b.position_holder),
  );
}
