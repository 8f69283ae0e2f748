import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import { call } from './http.js';

const UNAUTHORIZED = { error: 'unauthorized', message: 'Invalid or missing API key.' };
const FORBIDDEN = { error: 'forbidden', message: 'Your subscription does not include API access.' };

describe('sandbox authentication', () => {
  let sandbox: Sandbox | undefined;
  afterEach(() => sandbox?.close());

  it.each([
    ['no Authorization header', { key: null }],
    ['an unknown key', { key: 'wrong-key' }],
    ['a Basic scheme', { authorization: 'Basic c2FuZGJveC1rZXk6' }],
    ['Bearer without a key', { authorization: 'Bearer ' }],
    ['the key without Bearer', { authorization: 'sandbox-key' }],
  ] as const)('answers 401 with the exact body for %s', async (_name, options) => {
    sandbox = await startSandbox();
    for (const path of ['/issuers', '/issuers/ISS-0001/positions', '/nowhere']) {
      const response = await call(sandbox, path, options);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('accepts the bearer scheme in any case', async () => {
    sandbox = await startSandbox();
    expect((await call(sandbox, '/issuers', { authorization: 'bearer sandbox-key' })).status).toBe(200);
  });

  it('answers 403 for a key without API access, on both operations', async () => {
    sandbox = await startSandbox();
    for (const path of ['/issuers', '/issuers/ISS-0001/positions']) {
      const response = await call(sandbox, path, { key: 'sandbox-no-api' });
      expect(response.status).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
    }
  });

  it('uses the configured keys instead of the defaults', async () => {
    sandbox = await startSandbox({ keys: { valid: ['k1', 'k2'], noApiAccess: ['k3'] } });
    expect((await call(sandbox, '/issuers', { key: 'k2' })).status).toBe(200);
    expect((await call(sandbox, '/issuers', { key: 'k3' })).status).toBe(403);
    expect((await call(sandbox, '/issuers', { key: 'sandbox-key' })).status).toBe(401);
  });

  it('checks the key before the route, the status or the issuer', async () => {
    sandbox = await startSandbox();
    const response = await call(sandbox, '/issuers/ISS-9999/positions?status=bad', { key: 'nope' });
    expect(response.status).toBe(401);
  });
});

describe('sandbox rate limits', () => {
  let sandbox: Sandbox | undefined;
  afterEach(() => sandbox?.close());

  // 2026-01-05 10:00:30 UTC: 30 s into a minute window, 36,000 + 30 s into the day.
  const start = Date.UTC(2026, 0, 5, 10, 0, 30);

  async function limited(
    options: SandboxOptions = {},
  ): Promise<{ sandbox: Sandbox; clock: { now: number } }> {
    const clock = { now: start };
    sandbox = await startSandbox({ limits: { perMinute: 3, perDay: 5 }, now: () => clock.now, ...options });
    return { sandbox, clock };
  }

  it('answers 429 for the minute window with limit, window and Retry-After to the reset', async () => {
    const { sandbox } = await limited();
    for (let i = 0; i < 3; i++) expect((await call(sandbox, '/issuers')).status).toBe(200);
    const response = await call(sandbox, '/issuers/ISS-0001/positions');
    expect(response.status).toBe(429);
    expect(response.json()).toEqual({
      error: 'rate_limit_exceeded',
      message: expect.any(String),
      limit: 3,
      window: 'minute',
    });
    expect(response.headers.get('retry-after')).toBe('30');
  });

  it('opens the next minute window and then refuses with the daily limit', async () => {
    const { sandbox, clock } = await limited();
    for (let i = 0; i < 3; i++) await call(sandbox, '/issuers');
    expect((await call(sandbox, '/issuers')).status).toBe(429); // refused, yet counted: 4 today
    clock.now = start + 30_000; // the next minute window
    expect((await call(sandbox, '/issuers')).status).toBe(200); // 5 today
    clock.now += 999;
    const response = await call(sandbox, '/issuers');
    expect(response.status).toBe(429);
    const body = response.json();
    expect(body).toMatchObject({ error: 'rate_limit_exceeded', limit: 5, window: 'day' });
    expect(JSON.stringify(body)).toMatch(/daily request limit/i);
    const toMidnight = Math.ceil((Date.UTC(2026, 0, 6) - clock.now) / 1000);
    expect(response.headers.get('retry-after')).toBe(String(toMidnight));
    clock.now = Date.UTC(2026, 0, 6, 0, 0, 0); // a new UTC day
    expect((await call(sandbox, '/issuers')).status).toBe(200);
  });

  it('leaves Retry-After out when disabled', async () => {
    const { sandbox } = await limited({ retryAfterHeader: false });
    for (let i = 0; i < 3; i++) await call(sandbox, '/issuers');
    const response = await call(sandbox, '/issuers');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('leaves Retry-After out of a day rate-limit fault too when disabled, unless the fault gives one', async () => {
    const { sandbox } = await limited({ retryAfterHeader: false });
    sandbox.faults.rateLimit('day');
    const response = await call(sandbox, '/issuers/ISS-0001/positions');
    expect(response.status).toBe(429);
    expect(response.json()).toMatchObject({ limit: 5, window: 'day' });
    expect(response.headers.get('retry-after')).toBeNull();
    sandbox.faults.rateLimit('day', { retryAfterSeconds: 30 });
    expect((await call(sandbox, '/issuers')).headers.get('retry-after')).toBe('30');
  });

  it('counts per key, and counts every authenticated request including 404 and 405', async () => {
    const { sandbox } = await limited({ keys: { valid: ['a', 'b'] } });
    expect((await call(sandbox, '/nowhere', { key: 'a' })).status).toBe(404);
    expect((await call(sandbox, '/issuers', { key: 'a', method: 'POST' })).status).toBe(405);
    expect((await call(sandbox, '/issuers/ISS-9999/positions', { key: 'a' })).status).toBe(404);
    expect((await call(sandbox, '/issuers', { key: 'a' })).status).toBe(429);
    expect((await call(sandbox, '/issuers', { key: 'b' })).status).toBe(200);
  });

  it('does not count rejected keys', async () => {
    const { sandbox } = await limited();
    for (let i = 0; i < 5; i++) await call(sandbox, '/issuers', { key: 'intruder' });
    for (let i = 0; i < 5; i++) await call(sandbox, '/issuers', { key: 'sandbox-no-api' });
    expect((await call(sandbox, '/issuers')).status).toBe(200);
  });

  it('applies the default caps of 100 a minute', async () => {
    const clock = { now: start };
    sandbox = await startSandbox({ now: () => clock.now });
    const statuses = [];
    for (let i = 0; i < 101; i++) statuses.push((await call(sandbox, '/issuers')).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.at(-1)).toBe(429);
  });
});
