import type { RedisConfig } from '../config/schema/redis.js';
import { openSentinel } from './redis-connection.js';

/**
 * How many replicas the sentinels name for the master group (`SENTINEL REPLICAS`), connected or not: the
 * replicas the deployment is meant to have. `redis.durability.replicas: auto` waits for them even while
 * none is connected (right after a failover the old master is named, down, until it comes back as a
 * replica): a master left alone holds its dependent sends, with a notice, rather than tell what no replica
 * holds. Asked only while the master has fewer replicas connected than wanted, at most every `FRESH_MS`.
 */

/** How long one answer is used before the sentinels are asked again. */
const FRESH_MS = 5_000;

/** Asks the sentinels of `config()` in turn; the first answer counts. Undefined when none answers. */
async function askSentinels(config: RedisConfig): Promise<number | undefined> {
  const sentinel = config.sentinel;
  if (!sentinel) return 0;
  for (const address of sentinel.nodes) {
    const client = openSentinel(config, address, 1_000);
    client.on('error', () => undefined);
    try {
      await client.connect();
      const replicas = await client.call('SENTINEL', 'REPLICAS', sentinel.name);
      if (Array.isArray(replicas)) return replicas.length;
    } catch {
      // The next sentinel may answer.
    } finally {
      client.disconnect();
    }
  }
  return undefined;
}

/**
 * The count of replicas the sentinels name, kept `FRESH_MS`. While no sentinel answers: the last answer,
 * or 1 before any (hold rather than send what may be on no replica; the not-durable notice tells it).
 */
export function sentinelReplicas(config: () => RedisConfig, now: () => number): () => Promise<number> {
  let known: { count: number; at: number } | undefined;
  return async () => {
    if (known && now() - known.at < FRESH_MS) return known.count;
    const count = (await askSentinels(config())) ?? known?.count ?? 1;
    known = { count, at: now() };
    return count;
  };
}
