import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessState, accessFingerprint } from '../../src/budget/access-state.js';
import { Secret } from '../../src/config/secret.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const HOUR = 3_600_000;
const FINGERPRINT = accessFingerprint('https://api.example.com', 'key-1');

let env: TestRedis;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  env = await createTestRedis('access');
  clock = Date.UTC(2025, 2, 14, 9, 0);
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
    expect(await access.get()).toEqual({
      state: 'no-api-access',
      since: clock,
      message: 'Subscription does not include API access',
      fingerprint: FINGERPRINT,
      lastProbeAt: null,
    });
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
  it('grants one claim per interval across concurrent processes, and records the probe time', async () => {
    const states = Array.from({ length: 4 }, () => new AccessState(env.connect(), env.prefix, now));
    await states[0]!.revoke('unauthorized', 'Invalid or missing API key.', FINGERPRINT);
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => states[i % 4]!.claimProbe()));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(await states[1]!.get()).toMatchObject({ lastProbeAt: clock });

    const claimedAt = clock;
    clock = claimedAt + HOUR - 1;
    expect(await states[2]!.claimProbe()).toBe(false);
    clock = claimedAt + HOUR;
    expect(await states[3]!.claimProbe()).toBe(true);
    expect(await states[0]!.get()).toMatchObject({ lastProbeAt: clock });
  });

  it('honours a custom interval and lets the claim key expire by itself', async () => {
    const access = new AccessState(env.redis, env.prefix, now);
    expect(await access.claimProbe(5_000)).toBe(true);
    const ttl = await env.redis.pttl(`${env.prefix}:access:probe`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    clock += 4_999;
    expect(await access.claimProbe(5_000)).toBe(false);
    clock += 1;
    expect(await access.claimProbe(5_000)).toBe(true);
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
