import { keyRoot } from '../../src/state/keys.js';
import type { RedisClient } from '../../src/state/redis-connection.js';

/** Counts the keys of one deployment (`{<prefix>}:…`). */
export async function countKeysUnder(redis: RedisClient, prefix: string): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyRoot(prefix)}:*`, 'COUNT', 500);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}
