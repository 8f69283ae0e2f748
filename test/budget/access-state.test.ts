import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessState, accessFingerprint } from '../../src/budget/access-state.js';
import { Secret } from '../../src/config/secret.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { redisNow } from './redis-time.js';

const FINGERPRINT = accessFingerprint('https://api.example.com', 'key-1');

let env: TestRedis;
// The caller's clock is years from Redis': instants are Redis' time, whatever the caller's clock says.
const CALLER_NOW = Date.UTC(2025, 2, 14, 9, 0);
const now = () => CALLER_NOW;

/** True when `at` lies less than a second before Redis' time now. */
async function recent(at: number | null | undefined): Promise<boolean> {
  const redisAt = await redisNow(env.redis);
  return at !== null && at !== undefined && at <= redisAt && redisAt - at < 1_000;
}

beforeEach(async () => {
  env = await createTestRedis('access');
});

afterEach(async () => {
  await env.cleanup();
});

describe('AccessState', () => {
  it('is ok until revoked, then reports the revocation', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    expect(await access.get()).toEqual({ state: 'ok' });
    expect(
      await access.revoke('no-api-access', 'Subscription does not include API access', FINGERPRINT),
    ).toBe(true);
    const status = await access.get();
    expect(status).toEqual({
      state: 'no-api-access',
      since: expect.any(Number),
      message: 'Subscription does not include API access',
      fingerprint: FINGERPRINT,
      lastProbeAt: null,
    });
    expect(status.state !== 'ok' && (await recent(status.since))).toBe(true);
  });

  it('lets exactly one of many concurrent revokers from 4 connections win', async () => {
    const states = Array.from({ length: 4 }, () => new AccessState(env.connect(), env.prefix, now));
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        states[i % 4]!.revoke(i % 2 ? 'unauthorized' : 'no-api-access', `call ${i}`, FINGERPRINT),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(await states[0]!.get()).toMatchObject({ message: `call ${winner}` });
  });

  it('restores once, and can be revoked again afterwards', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    expect(await access.restore()).toBe(false);
    await access.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    expect(await access.restore()).toBe(true);
    expect(await access.restore()).toBe(false);
    expect(await access.get()).toEqual({ state: 'ok' });
    expect(await access.revoke('unauthorized', 'again', FINGERPRINT)).toBe(true);
  });

  it.each<[string, string, boolean]>([
    ['a new key restores', accessFingerprint('https://api.example.com', 'key-2'), true],
    ['a new base URL restores', accessFingerprint('https://api2.example.com', 'key-1'), true],
    ['the same config stays revoked', FINGERPRINT, false],
  ])('reconcile: %s', async (_name, fingerprint, restored) => {
    const access = new AccessState(env.redis, env.prefix, now);
    await access.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    expect(await access.reconcile(fingerprint)).toBe(restored);
    expect((await access.get()).state).toBe(restored ? 'ok' : 'unauthorized');
  });

  it('reconcile does nothing while access is ok', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    expect(await access.reconcile('anything')).toBe(false);
    expect(await access.get()).toEqual({ state: 'ok' });
  });

  it('treats an unreadable record as revoked, and reconcile clears it', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    await env.redis.hset(`${env.prefix}:access`, 'state', 'banana');
    expect(await access.get()).toMatchObject({ state: 'unauthorized', fingerprint: '' });
    expect(await access.reconcile(FINGERPRINT)).toBe(true);
    expect(await access.get()).toEqual({ state: 'ok' });
  });
});

describe('AccessState.claimProbe', () => {
  const INTERVAL = 400;

  it('grants one claim per interval across concurrent processes, by Redis time, and records the probe time', async () => {
    const states = Array.from(
      { length: 4 },
      (_, i) => new AccessState(env.connect(), env.prefix, () => CALLER_NOW + i * 61_000),
    );
    await states[0]!.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) => states[i % 4]!.claimProbe(INTERVAL)),
    );
    expect(first.filter(Boolean)).toHaveLength(1);
    const status = await states[0]!.get();
    expect(status.state !== 'ok' && (await recent(status.lastProbeAt))).toBe(true);
    const claimedAt = Number(await env.redis.get(`${env.prefix}:access:probe`));

    // Callers whose clocks are a minute apart wait the same interval.
    expect(await states[2]!.claimProbe(INTERVAL)).toBe(false);
    await sleep(Math.max(0, claimedAt + INTERVAL - (await redisNow(env.redis))));
    expect(await states[3]!.claimProbe(INTERVAL)).toBe(true);
    expect(Number(await env.redis.hget(`${env.prefix}:access`, 'lastProbeAt'))).toBeGreaterThanOrEqual(
      claimedAt + INTERVAL,
    );
  });

  it('lets the claim key expire by itself after the interval', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    expect(await access.claimProbe(5_000)).toBe(true);
    const ttl = await env.redis.pttl(`${env.prefix}:access:probe`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    expect(await access.claimProbe(5_000)).toBe(false);
  });

  it('does not create an access record when access is ok', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    expect(await access.claimProbe()).toBe(true);
    expect(await access.get()).toEqual({ state: 'ok' });
  });
});

describe('accessFingerprint', () => {
  it('is a short hex digest that never contains the key, the same for a Secret and its string', () => {
    const key = 'sk-live-0123456789abcdef';
    const fingerprint = accessFingerprint('https://api.example.com', key);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint).not.toContain(key.slice(0, 8));
    expect(accessFingerprint('https://api.example.com', new Secret(key))).toBe(fingerprint);
    expect(accessFingerprint('https://api.example.com', `${key}x`)).not.toBe(fingerprint);
  });
});
