import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessState, accessFingerprint } from '../../src/budget/access-state.js';
import { isAccessRevokedError, isBudgetExhaustedError } from '../../src/budget/budget-errors.js';
import { createBudgetGuard } from '../../src/budget/guard.js';
import { RateBudget } from '../../src/budget/rate-budget.js';
import { Secret } from '../../src/config/secret.js';
import { createUpstreamClient, type UpstreamClient } from '../../src/upstream/client.js';
import { isRateLimitedError, isUnauthorizedError } from '../../src/upstream/errors.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

// The guard wired into the real upstream client, against a real local HTTP server that answers
// with whatever status the test sets: proves the hooks stop requests before they leave.

let env: TestRedis;
let server: Server;
let baseUrl: string;
let answer: { status: number; body: unknown; headers?: Record<string, string> };
let received: number;
// The caller's clock is years from Redis' (a host whose clock is off): the budget must not care.
const now = () => Date.UTC(2025, 2, 14, 10, 0, 5);
const PROBE_EVERY = 300;

beforeEach(async () => {
  env = await createTestRedis('guard-client');
  received = 0;
  answer = { status: 200, body: { data: [], last_updated: null } };
  server = createServer((_req, res) => {
    received++;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await env.cleanup();
});

function client(options: { probe?: boolean; perMinute?: number } = {}): UpstreamClient {
  const apiKey = new Secret('key-1');
  const budget = new RateBudget(
    env.redis,
    {
      ledger: env.prefix,
      perMinute: options.perMinute ?? 100,
      perDay: 1000,
      reserve: 0,
      minuteMs: 60_000,
      dayMs: 86_400_000,
    },
    now,
  );
  const access = new AccessState(env.redis, env.prefix, now);
  const guard = createBudgetGuard({
    budget,
    access,
    fingerprint: accessFingerprint(baseUrl, apiKey),
    interactive: false,
    probe: options.probe ?? false,
    rateLimitProbeMs: PROBE_EVERY,
  });
  return createUpstreamClient({
    baseUrl,
    apiKey,
    timeoutMs: 2_000,
    maxBodyBytes: 100_000,
    retries: 0,
    retryDelayMs: 0,
    now,
    beforeRequest: guard.beforeRequest,
    afterResponse: guard.afterResponse,
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('budget guard in the upstream client', () => {
  it('sends nothing once the budget is spent', async () => {
    const upstream = client({ perMinute: 2 });
    await upstream.listIssuers();
    await upstream.listIssuers();
    expect(isBudgetExhaustedError(await rejection(upstream.listIssuers()))).toBe(true);
    expect(received).toBe(2);
    await upstream.close();
  });

  it('after a daily 429 without Retry-After: nothing until the probe, one probe, then requests flow again', async () => {
    const upstream = client();
    const other = client();
    answer = {
      status: 429,
      body: {
        error: 'rate_limit_exceeded',
        message: 'Daily request limit reached',
        limit: 1000,
        window: 'day',
      },
    };
    expect(isRateLimitedError(await rejection(upstream.listIssuers()))).toBe(true);
    const blocked = await rejection(other.listIssuers());
    expect(blocked).toMatchObject({ reason: 'blocked' });
    expect(received).toBe(1);
    // Not our own midnight: the first probe one interval later.
    await sleep(PROBE_EVERY);
    expect(isRateLimitedError(await rejection(other.listIssuers()))).toBe(true);
    expect(await rejection(upstream.listIssuers())).toMatchObject({ reason: 'blocked' });
    expect(received).toBe(2);

    answer = { status: 200, body: { data: [], last_updated: null } };
    await sleep(PROBE_EVERY);
    await upstream.listIssuers();
    await other.listIssuers();
    expect(received).toBe(4);
    await Promise.all([upstream.close(), other.close()]);
  });

  it('stops every request after a 401, lets the probe through, and resumes when it succeeds', async () => {
    const upstream = client();
    const probe = client({ probe: true });
    answer = { status: 401, body: { error: 'unauthorized', message: 'Invalid or missing API key.' } };
    expect(isUnauthorizedError(await rejection(upstream.listIssuers()))).toBe(true);
    expect(isAccessRevokedError(await rejection(upstream.getPositions('ISS1')))).toBe(true);
    expect(received).toBe(1);

    answer = { status: 200, body: { data: [], last_updated: null } };
    await probe.listIssuers();
    expect(received).toBe(2);
    await upstream.listIssuers();
    expect(received).toBe(3);
    await Promise.all([upstream.close(), probe.close()]);
  });
});
