import type { RedisConfig } from '../config/schema/redis.js';
import { connectWithin, openRedis } from '../state/redis-connection.js';

/** How long the referee's new connection may take to connect and answer. */
const REFEREE_MS = 2_000;

/**
 * Whether a new connection reaches Redis and answers a ping within 2 s: the referee that tells a Redis
 * outage (nothing reaches it) from a stuck connection of this process (a new one does).
 */
export async function redisReachable(config: RedisConfig, name: string): Promise<boolean> {
  const probe = openRedis(config, { purpose: 'probe', name, connectTimeoutMs: REFEREE_MS });
  probe.on('error', () => undefined);
  try {
    await connectWithin(probe, REFEREE_MS);
    const timer = new Promise<string>((resolve) => setTimeout(() => resolve('late'), REFEREE_MS).unref());
    return (await Promise.race([probe.ping(), timer])) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
