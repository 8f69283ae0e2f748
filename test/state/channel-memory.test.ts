import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisChannelMemory } from '../../src/state/channel-memory.js';
import { stateKeys } from '../../src/state/keys.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('a channel’s memory in Redis', () => {
  let t: TestRedis;

  beforeEach(async () => {
    t = await createTestRedis('memory');
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('keeps each entry under the registry’s key for the channel, with an expiry', async () => {
    const desk = new RedisChannelMemory(t.redis, t.prefix, 'desk');
    const other = new RedisChannelMemory(t.redis, t.prefix, 'other');
    await desk.set('thread:C1:2026-11-28:abc', '1700000000.000001', 3_600_000);
    expect(await desk.get('thread:C1:2026-11-28:abc')).toBe('1700000000.000001');
    expect(await other.get('thread:C1:2026-11-28:abc')).toBeUndefined();
    const key = stateKeys(t.prefix).channelMemory('desk', 'thread:C1:2026-11-28:abc');
    const ttl = await t.redis.pttl(key);
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
  });

  it('never stores an entry without an expiry, however short the life asked', async () => {
    const desk = new RedisChannelMemory(t.redis, t.prefix, 'desk');
    await desk.set('dm:x', 'D1', -5_000);
    const ttl = await t.redis.pttl(stateKeys(t.prefix).channelMemory('desk', 'dm:x'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_000);
  });
});
