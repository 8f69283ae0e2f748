import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScenario, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { issuerListSchema, positionsResponseSchema } from '../../src/upstream/schemas.js';
import { call } from './http.js';

const ODD_IDS = [
  ['a slash', 'LEI/549300ABC'],
  ['a space', 'ISS 0042'],
  ['unicode', 'Ørsted-Å/ß'],
  ['a percent sign', '100%-owned'],
  ['a question mark', 'what?id'],
] as const;

describe('sandbox endpoints', () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await startSandbox({ scenario: createScenario({ seed: 7 }) });
    for (const [, id] of ODD_IDS) {
      sandbox.scenario.addIssuer({ svc_issuer_id: id, name: `Odd ${id}` });
      sandbox.scenario.disclose(id, 'Marshall Wace LLP', 0.61, '2026-01-02');
    }
  });
  afterAll(() => sandbox.close());

  it('lists issuers sorted by id with last_updated, as JSON', async () => {
    const response = await call(sandbox, '/issuers');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = issuerListSchema.parse(response.json());
    expect(body.data).toEqual(sandbox.scenario.issuers());
    const ids = body.data.map((issuer) => issuer.svc_issuer_id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toContain('ISS-0001');
    expect(body.last_updated).toBe(sandbox.scenario.lastUpdated());
  });

  it.each([
    ['no status', '', 'active'],
    ['status=active', '?status=active', 'active'],
    ['status=all', '?status=all', 'all'],
  ] as const)('answers positions with %s', async (_name, query, status) => {
    const response = await call(sandbox, `/issuers/ISS-0001/positions${query}`);
    expect(response.status).toBe(200);
    const body = positionsResponseSchema.parse(response.json());
    expect(body.status).toBe(status);
    expect(body.issuer).toEqual(sandbox.scenario.issuer('ISS-0001'));
    const expected =
      status === 'active' ? sandbox.scenario.active('ISS-0001') : sandbox.scenario.all('ISS-0001');
    expect(body.data).toEqual(expected);
    expect(body.last_updated).toBe(sandbox.scenario.lastUpdated());
  });

  it.each(ODD_IDS)('decodes an issuer id with %s', async (_name, id) => {
    const response = await call(sandbox, `/issuers/${encodeURIComponent(id)}/positions?status=all`);
    expect(response.status).toBe(200);
    const body = positionsResponseSchema.parse(response.json());
    expect(body.issuer.svc_issuer_id).toBe(id);
    expect(body.data).toEqual([{ date: '2026-01-02', value: 0.61, position_holder: 'Marshall Wace LLP' }]);
  });

  it.each([
    [
      'an unknown issuer',
      '/issuers/ISS-9999/positions',
      404,
      { error: 'not_found', message: 'Issuer not found.' },
    ],
    ['an empty id', '/issuers//positions', 404, { error: 'not_found', message: 'Issuer not found.' }],
    ['a status of none', '/issuers/ISS-0001/positions?status=none', 400, { error: 'invalid_request' }],
    ['an empty status', '/issuers/ISS-0001/positions?status=', 400, { error: 'invalid_request' }],
    [
      'two statuses',
      '/issuers/ISS-0001/positions?status=all&status=active',
      400,
      { error: 'invalid_request' },
    ],
    ['an unknown route', '/v1/issuers', 404, { error: 'not_found' }],
    ['a trailing slash', '/issuers/', 404, { error: 'not_found' }],
    ['bad percent-encoding', '/issuers/%E0%A4%A/positions', 400, { error: 'invalid_request' }],
  ] as const)('answers %s with a JSON error', async (_name, path, status, body) => {
    const response = await call(sandbox, path);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json()).toMatchObject(body);
    expect(response.json()).toEqual({ error: expect.any(String), message: expect.any(String) });
  });

  it.each(['POST', 'DELETE', 'PUT'])('answers %s on a known route with 405 JSON', async (method) => {
    const response = await call(sandbox, '/issuers', { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect(response.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('serves a removed issuer as 404 and keeps it out of the list', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'GONE-1', name: 'Gone plc' });
    expect((await call(sandbox, '/issuers/GONE-1/positions')).status).toBe(200);
    sandbox.scenario.removeIssuer('GONE-1');
    expect((await call(sandbox, '/issuers/GONE-1/positions')).status).toBe(404);
    const list = issuerListSchema.parse((await call(sandbox, '/issuers')).json());
    expect(list.data.map((issuer) => issuer.svc_issuer_id)).not.toContain('GONE-1');
  });

  it('reports a null last_updated when the scenario has none', async () => {
    sandbox.scenario.setLastUpdated(null);
    const body = issuerListSchema.parse((await call(sandbox, '/issuers')).json());
    expect(body.last_updated).toBeNull();
  });
});

describe('sandbox lively mode', () => {
  it('steps the scenario on a timer when stepEvery is set', async () => {
    const sandbox = await startSandbox({ scenario: createScenario({ seed: 3 }), stepEvery: 5 });
    const first = sandbox.scenario.today();
    await expect.poll(() => sandbox.scenario.today(), { timeout: 5000 }).not.toBe(first);
    await sandbox.close();
  });
});
