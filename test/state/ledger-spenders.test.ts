import { afterEach, describe, expect, it } from 'vitest';
import { ledgerKeys } from '../../src/state/keys.js';
import { LedgerSpenders, SPENDER_GONE_AFTER_MS } from '../../src/state/ledger-spenders.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('the deployments that spend one credential’s budget', () => {
  let t: TestRedis | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function open() {
    t = await createTestRedis('spenders');
    // A test's own root (cleanup deletes it), where the app passes `ledgerRoot(<fingerprint>)`.
    return {
      spenders: new LedgerSpenders(t.redis, t.prefix),
      key: ledgerKeys(t.prefix).spenders,
      redis: t.redis,
    };
  }

  it('names each deployment once, however many of its processes beat, and a read records nobody', async () => {
    const { spenders } = await open();
    expect(await spenders.deployments()).toEqual([]);
    expect(await spenders.beat('prod', 'host-a-1')).toEqual(['prod']);
    expect(await spenders.beat('prod', 'host-b-2')).toEqual(['prod']);
    expect(await spenders.beat('staging', 'host-a-3')).toEqual(['prod', 'staging']);
    expect(await spenders.deployments()).toEqual(['prod', 'staging']);
  });

  it('a process that stops leaves at once; its deployment stays while another of its processes beats', async () => {
    const { spenders } = await open();
    await spenders.beat('prod', 'host-a-1');
    await spenders.beat('prod', 'host-b-2');
    await spenders.beat('staging', 'host-a-3');
    await spenders.leave('prod', 'host-a-1');
    expect(await spenders.deployments()).toEqual(['prod', 'staging']);
    await spenders.leave('staging', 'host-a-3');
    expect(await spenders.deployments()).toEqual(['prod']);
  });

  it('a process gone quiet (killed) stops counting once its last beat is older than the limit', async () => {
    const { spenders, key, redis } = await open();
    await spenders.beat('prod', 'host-a-1');
    await spenders.beat('staging', 'host-a-3');
    // Staging's process last beat just over the limit ago, by Redis' clock.
    const [seconds = '0', micros = '0'] = (await redis.time()).map(String);
    const redisNow = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    await redis.hset(key, 'staging host-a-3', redisNow - SPENDER_GONE_AFTER_MS - 1_000);
    // A reader (`status`) leaves it out and writes nothing; the next beat drops it.
    expect(await spenders.deployments()).toEqual(['prod']);
    expect(await redis.hlen(key)).toBe(2);
    expect(await spenders.beat('prod', 'host-a-1')).toEqual(['prod']);
    expect(await redis.hkeys(key)).toEqual(['prod host-a-1']);
  });

  it('the record expires by itself a while after the last beat: no deployment owns the ledger', async () => {
    const { spenders, key, redis } = await open();
    await spenders.beat('prod', 'host-a-1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(SPENDER_GONE_AFTER_MS);
    expect(ttl).toBeLessThanOrEqual(2 * SPENDER_GONE_AFTER_MS);
  });
});
