import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call } from './http.js';

describe('sandbox stats', () => {
  let sandbox: Sandbox;
  const clock = { now: 0 };

  beforeEach(async () => {
    clock.now = Date.UTC(2026, 0, 5, 9, 0, 0);
    sandbox = await startSandbox({ now: () => clock.now, keys: { valid: ['a', 'b'] } });
  });
  afterEach(() => sandbox.close());

  it('records every request with its key, path, operation, decoded issuer id and status', async () => {
    sandbox.scenario.addIssuer({ svc_issuer_id: 'X/1', name: 'Slash plc' });
    await call(sandbox, '/issuers', { key: 'a' });
    await call(sandbox, '/issuers/X%2F1/positions?status=all', { key: 'b' });
    await call(sandbox, '/elsewhere', { key: null });
    expect(sandbox.stats.requests).toEqual([
      { at: clock.now, key: 'a', method: 'GET', path: '/issuers', operation: 'issuers', status: 200 },
      {
        at: clock.now,
        key: 'b',
        method: 'GET',
        path: '/issuers/X%2F1/positions',
        operation: 'positions',
        issuerId: 'X/1',
        status: 200,
      },
      { at: clock.now, key: null, method: 'GET', path: '/elsewhere', operation: 'other', status: 401 },
    ]);
  });

  it('counts by key, status, operation and issuer', async () => {
    await call(sandbox, '/issuers', { key: 'a' });
    await call(sandbox, '/issuers/ISS-0001/positions', { key: 'a' });
    await call(sandbox, '/issuers/ISS-0001/positions', { key: 'b' });
    await call(sandbox, '/issuers/ISS-0002/positions', { key: 'b' });
    await call(sandbox, '/issuers/NOPE/positions', { key: 'b' });
    await call(sandbox, '/issuers', { key: 'wrong' });
    expect(sandbox.stats.count()).toBe(6);
    expect(sandbox.stats.count({ key: 'a' })).toBe(2);
    expect(sandbox.stats.count({ operation: 'positions' })).toBe(4);
    expect(sandbox.stats.count({ operation: 'positions', issuerId: 'ISS-0001' })).toBe(2);
    expect(sandbox.stats.count({ status: 404 })).toBe(1);
    expect(sandbox.stats.count({ status: 401, key: 'wrong' })).toBe(1);
    expect(sandbox.stats.count({ key: 'b', status: 200 })).toBe(2);
  });

  it('finds the busiest aligned window', async () => {
    const minute = 60_000;
    clock.now = Date.UTC(2026, 0, 5, 9, 0, 50);
    for (let i = 0; i < 3; i++) await call(sandbox, '/issuers', { key: 'a' });
    clock.now += 20_000; // 09:01:10, the next aligned minute
    for (let i = 0; i < 4; i++) await call(sandbox, '/issuers', { key: 'b' });
    await call(sandbox, '/issuers', { key: 'a' });
    expect(sandbox.stats.maxInWindow(minute)).toBe(5);
    expect(sandbox.stats.maxInWindow(minute, { key: 'a' })).toBe(3);
    expect(sandbox.stats.maxInWindow(3_600_000)).toBe(8);
    expect(sandbox.stats.maxInWindow(minute, { status: 500 })).toBe(0);
  });

  it('resets', async () => {
    await call(sandbox, '/issuers', { key: 'a' });
    sandbox.stats.reset();
    expect(sandbox.stats.requests).toEqual([]);
    expect(sandbox.stats.count()).toBe(0);
    await call(sandbox, '/issuers', { key: 'a' });
    expect(sandbox.stats.count()).toBe(1);
  });
});
