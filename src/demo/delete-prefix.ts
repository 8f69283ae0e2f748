import { keyRoot } from '../state/keys.js';
import type { RedisClient } from '../state/redis-connection.js';

/**
 * Deletes every key of one deployment (`{<prefix>}:…`), or of a ledger when given its tagged root
 * (state/keys.ts `ledgerRoot`), with SCAN and UNLINK; never KEYS or FLUSHALL.
 */
export async function deleteKeysUnder(redis: RedisClient, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyRoot(prefix)}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
