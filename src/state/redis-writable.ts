import type { RedisConfig } from '../config/schema/redis.js';
import { within } from '../time/within.js';
import { stateKeys } from './keys.js';
import { type RedisClient, topologyOf } from './redis-connection.js';
import { RedisProblemError, redisAddress, redisProblemOf } from './redis-problem.js';

// One script, as the daemon's own writes are: an ACL user without script or write rights, a Redis at its
// maxmemory with noeviction or a replica fails it the way it would fail the first real commit.
const WRITE_PROBE = `redis.call('SET', KEYS[1], ARGV[1], 'PX', 5000)
return redis.call('DEL', KEYS[1])`;

/** How long the probe may take: a Redis that answered the connect but not this is named too. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Proves that Redis takes the deployment's writes, or throws a {@link RedisProblemError} naming why not:
 * a replica (asked first: a write there would wait on a failover that never comes), an ACL user without
 * rights (NOPERM), a full Redis with noeviction (OOM), a node loading its dataset (LOADING). `root` is
 * the deployment's key root (state/keys.ts).
 */
export async function assertWritable(redis: RedisClient, config: RedisConfig, root: string): Promise<void> {
  const address = redisAddress(config);
  try {
    // Sentinel and Cluster find the master themselves; a url may name a replica.
    if (topologyOf(config) === 'single') {
      const info = String(await within(redis.info('replication'), PROBE_TIMEOUT_MS, 'INFO replication'));
      const role = /^role:(\w+)/m.exec(info)?.[1];
      if (role === 'slave' || role === 'replica') {
        const master = /^master_host:(.+)$/m.exec(info)?.[1]?.trim();
        const port = /^master_port:(\d+)/m.exec(info)?.[1];
        throw new RedisProblemError(
          'replica',
          address,
          `role:replica${master ? ` of ${master}:${port}` : ''}`,
        );
      }
    }
    await within(
      redis.eval(WRITE_PROBE, 1, stateKeys(root).writeProbe, String(process.pid)),
      PROBE_TIMEOUT_MS,
      'the write probe',
    );
  } catch (error) {
    throw redisProblemOf(error, config) ?? error;
  }
}
