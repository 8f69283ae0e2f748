import { redisSchema } from '../config/schema/redis.js';
import { openRedis, type RedisClient } from '../state/redis-connection.js';

/** A Redis URL fit to print: user and password left out. */
export function displayRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(an unreadable REDIS_URL)';
  }
}

/** Opens a connection to `url` that fails fast: no retries, no offline queue, a short connect timeout. */
export function connectOnce(url: string, timeoutMs: number): RedisClient {
  const redis = openRedis(redisSchema.parse({ url }), { purpose: 'probe', connectTimeoutMs: timeoutMs });
  // The failure is reported by connect(); without a listener ioredis would print it too.
  redis.on('error', () => undefined);
  return redis;
}

/** Whether a Redis answers PING at `url` within `timeoutMs`; undefined when it does, else why not. */
export async function probeRedis(url: string, timeoutMs = 1_500): Promise<string | undefined> {
  let redis: RedisClient;
  try {
    redis = connectOnce(url, timeoutMs);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  // ioredis rejects connect() with a bare "Connection is closed."; the error event says why.
  let cause: string | undefined;
  redis.on('error', (error: Error) => {
    cause ??= error.message;
  });
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return cause ?? (error instanceof Error ? error.message : String(error));
  } finally {
    redis.disconnect();
  }
}
