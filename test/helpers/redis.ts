import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { recordPrefix } from './key-census.js';

/** Redis URL for tests: `REDIS_URL` or the local default. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A Redis connection and a key prefix of a test's own; `cleanup()` deletes every key under the prefix. */
export interface TestRedis {
  redis: Redis;
  prefix: string;
  /** Opens another connection (workers need their own, with `maxRetriesPerRequest: null`). */
  connect(): Redis;
  cleanup(): Promise<void>;
}

/** Opens a connection with a unique prefix `t-<uuid>`; never touches other keys, never FLUSHALL. */
export async function createTestRedis(label = 't'): Promise<TestRedis> {
  const prefix = `${label}-${randomUUID().slice(0, 12)}`;
  recordPrefix(prefix);
  const opened: Redis[] = [];
  const connect = () => {
    const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
    opened.push(client);
    return client;
  };
  const redis = connect();
  return {
    redis,
    prefix,
    connect,
    async cleanup() {
      await deleteByPrefix(redis, prefix);
      await Promise.all(opened.map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

/**
 * Deletes every key that starts with `prefix` or with its hash-tagged form `{prefix}` (what an App
 * built on that prefix writes); SCAN, never KEYS or FLUSHALL.
 */
export async function deleteByPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for (const pattern of [`${prefix}*`, `{${prefix}}*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  }
  return deleted;
}
