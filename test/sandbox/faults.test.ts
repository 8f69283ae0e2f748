import { Agent, request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { issuerListSchema, positionsResponseSchema } from '../../src/upstream/schemas.js';
import { call } from './http.js';

describe('sandbox faults', () => {
  let sandbox: Sandbox;
  const clock = { now: Date.UTC(2026, 0, 5, 12, 0, 15) };

  beforeEach(async () => {
    sandbox = await startSandbox({ now: () => clock.now });
  });
  afterEach(() => sandbox.close());

  it('applies a fault `times` times, then answers normally', async () => {
    sandbox.faults.inject({ status: 500, times: 2 });
    expect(sandbox.faults.pending()).toBe(1);
    const first = await call(sandbox, '/issuers');
    expect(first.status).toBe(500);
    expect(first.json()).toEqual({ error: 'internal_error', message: expect.any(String) });
    expect((await call(sandbox, '/issuers/ISS-0001/positions')).status).toBe(500);
    expect(sandbox.faults.pending()).toBe(0);
    expect((await call(sandbox, '/issuers')).status).toBe(200);
  });

  it('keeps an Infinity fault until cleared', async () => {
    sandbox.faults.inject({ status: 503, times: Number.POSITIVE_INFINITY, headers: { 'retry-after': '4' } });
    for (let i = 0; i < 5; i++) {
      const response = await call(sandbox, '/issuers');
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('4');
      expect(response.json()).toMatchObject({ error: 'service_unavailable' });
    }
    expect(sandbox.faults.pending()).toBe(1);
    sandbox.faults.clear();
    expect(sandbox.faults.pending()).toBe(0);
    expect((await call(sandbox, '/issuers')).status).toBe(200);
  });

  it('targets one issuer and leaves the others and the issuer list alone', async () => {
    sandbox.faults.inject({ issuerId: 'ISS-0002', status: 502 });
    expect((await call(sandbox, '/issuers')).status).toBe(200);
    expect((await call(sandbox, '/issuers/ISS-0001/positions')).status).toBe(200);
    expect((await call(sandbox, '/issuers/ISS-0002/positions')).status).toBe(502);
    expect((await call(sandbox, '/issuers/ISS-0002/positions')).status).toBe(200);
  });

  it('targets one operation', async () => {
    sandbox.faults.inject({ operation: 'issuers', status: 500 });
    expect((await call(sandbox, '/issuers/ISS-0001/positions')).status).toBe(200);
    expect((await call(sandbox, '/issuers')).status).toBe(500);
  });

  it('uses faults in the order injected', async () => {
    sandbox.faults.inject({ status: 500 });
    sandbox.faults.inject({ status: 502 });
    expect((await call(sandbox, '/issuers')).status).toBe(500);
    expect((await call(sandbox, '/issuers')).status).toBe(502);
  });

  it('sends invalid JSON with 200 for a malformed body', async () => {
    sandbox.faults.inject({ body: 'malformed', times: 2 });
    for (const path of ['/issuers', '/issuers/ISS-0001/positions']) {
      const response = await call(sandbox, path);
      expect(response.status).toBe(200);
      expect(response.text.length).toBeGreaterThan(0);
      expect(() => response.json()).toThrow(SyntaxError);
    }
  });

  it('sends valid JSON that breaks the schema for a schema body', async () => {
    sandbox.faults.inject({ body: 'schema', times: 3 });
    const list = await call(sandbox, '/issuers');
    expect(list.status).toBe(200);
    expect(issuerListSchema.safeParse(list.json()).success).toBe(false);
    const positions = await call(sandbox, '/issuers/ISS-0001/positions');
    expect(positionsResponseSchema.safeParse(positions.json()).success).toBe(false);
    const empty = sandbox.scenario
      .issuers()
      .find((issuer) => sandbox.scenario.active(issuer.svc_issuer_id)?.length === 0);
    const none = await call(sandbox, `/issuers/${empty?.svc_issuer_id}/positions`);
    expect(positionsResponseSchema.safeParse(none.json()).success).toBe(false);
  });

  it('sends any JSON value given as the body, with the given status', async () => {
    sandbox.faults.inject({ body: { unexpected: [1, 2] }, status: 418 });
    const response = await call(sandbox, '/issuers');
    expect(response.status).toBe(418);
    expect(response.json()).toEqual({ unexpected: [1, 2] });
  });

  it('sends raw text, such as a proxy error page', async () => {
    sandbox.faults.inject({
      status: 502,
      text: '<html>Bad Gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const response = await call(sandbox, '/issuers');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.text).toBe('<html>Bad Gateway</html>');
  });

  it('delays an answer and then answers normally', async () => {
    sandbox.faults.inject({ issuerId: 'ISS-0001', delayMs: 400 });
    const order: string[] = [];
    const slow = call(sandbox, '/issuers/ISS-0001/positions').then((response) => {
      order.push('slow');
      return response;
    });
    const fast = call(sandbox, '/issuers/ISS-0002/positions').then(() => order.push('fast'));
    const [response] = await Promise.all([slow, fast]);
    expect(order).toEqual(['fast', 'slow']);
    expect(response.status).toBe(200);
    expect(positionsResponseSchema.parse(response.json()).data).toEqual(sandbox.scenario.active('ISS-0001'));
  });

  it('lets a client time out on a long delay, and closes without waiting for it', async () => {
    sandbox.faults.inject({ delayMs: 60_000 });
    const signal = AbortSignal.timeout(50);
    await expect(
      fetch(`${sandbox.url}/issuers`, { headers: { authorization: 'Bearer sandbox-key' }, signal }),
    ).rejects.toThrow();
    await expect(sandbox.close()).resolves.toBeUndefined();
  });

  it.each([
    ['issuers', '/issuers', 4096],
    ['positions', '/issuers/ISS-0001/positions', 1_000_000],
    ['a size under the smallest body', '/issuers', 10],
  ])('sends a valid-looking body of the given size (%s)', async (_name, path, bytes) => {
    sandbox.faults.inject({ bytes });
    const response = await call(sandbox, path);
    expect(response.status).toBe(200);
    const body = response.json();
    if (bytes > 100) {
      expect(response.headers.get('content-length')).toBe(String(bytes));
      expect(Buffer.byteLength(response.text)).toBe(bytes);
    }
    const schema = path === '/issuers' ? issuerListSchema : positionsResponseSchema;
    expect(schema.safeParse(body).success).toBe(true);
  });

  it('survives a client that gives up on an oversized body, and answers the next request', async () => {
    sandbox.faults.inject({ bytes: 20_000_000 });
    const agent = new Agent({ maxResponseSize: 64_000 });
    try {
      const headers = { authorization: 'Bearer sandbox-key' };
      const huge = request(`${sandbox.url}/issuers`, { headers, dispatcher: agent }).then((r) =>
        r.body.text(),
      );
      await expect(huge).rejects.toMatchObject({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
      const next = await request(`${sandbox.url}/issuers`, { headers, dispatcher: agent });
      expect(next.statusCode).toBe(200);
      expect(issuerListSchema.safeParse(await next.body.json()).success).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('sends the service 429 for a rate-limit fault, Retry-After to the window reset', async () => {
    sandbox.faults.rateLimit('day');
    const response = await call(sandbox, '/issuers');
    expect(response.status).toBe(429);
    expect(response.json()).toMatchObject({ error: 'rate_limit_exceeded', limit: 1000, window: 'day' });
    expect(response.headers.get('retry-after')).toBe(String(12 * 3600 - 15));
  });

  it('sends the given Retry-After for a rate-limit fault, `times` times', async () => {
    sandbox.faults.rateLimit('minute', { retryAfterSeconds: 7, times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await call(sandbox, '/issuers');
      expect(response.json()).toMatchObject({ limit: 100, window: 'minute' });
      expect(response.headers.get('retry-after')).toBe('7');
    }
    expect((await call(sandbox, '/issuers')).status).toBe(200);
  });

  it('answers a transient 404 for one issuer with the service body, `times` times, then normally', async () => {
    sandbox.faults.inject({ issuerId: 'ISS-0003', status: 404, times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await call(sandbox, '/issuers/ISS-0003/positions');
      expect(response.status).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Issuer not found.' });
    }
    expect((await call(sandbox, '/issuers')).json()).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ svc_issuer_id: 'ISS-0003' })]),
    });
    const back = await call(sandbox, '/issuers/ISS-0003/positions');
    expect(back.status).toBe(200);
    expect(positionsResponseSchema.parse(back.json()).data).toEqual(sandbox.scenario.active('ISS-0003'));
  });

  it('sends a 429 without Retry-After when the fault says retryAfterSeconds: null', async () => {
    sandbox.faults.rateLimit('day', { retryAfterSeconds: null, times: 2 });
    for (const path of ['/issuers', '/issuers/ISS-0001/positions']) {
      const response = await call(sandbox, path);
      expect(response.status).toBe(429);
      expect(response.json()).toMatchObject({ error: 'rate_limit_exceeded', limit: 1000, window: 'day' });
      expect(response.headers.has('retry-after')).toBe(false);
    }
    expect((await call(sandbox, '/issuers')).status).toBe(200);
  });

  it('applies after authentication and counts the faulted answer in stats', async () => {
    sandbox.faults.inject({ status: 500 });
    expect((await call(sandbox, '/issuers', { key: null })).status).toBe(401);
    expect(sandbox.faults.pending()).toBe(1);
    expect((await call(sandbox, '/issuers')).status).toBe(500);
    expect(sandbox.stats.count({ status: 500, key: 'sandbox-key', operation: 'issuers' })).toBe(1);
  });
});
