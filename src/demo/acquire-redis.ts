import { RedisNotFoundError } from './redis-not-found-error.js';
import { displayRedisUrl, probeRedis } from './redis-probe.js';
import { findOnPath, type RedisChild, startRedisServer } from './redis-server-child.js';

/** Where the demo's Redis comes from when `REDIS_URL` is not set. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** The Redis the demo runs on: one that answered, or a `redis-server` it started for its lifetime. */
export interface DemoRedis {
  url: string;
  /** The URL without credentials, for printing. */
  display: string;
  /** Set when the demo started this server; stop it last. */
  child?: RedisChild;
  /** What was tried and why this one, one sentence. */
  note: string;
}

/**
 * `REDIS_URL` if set, else 127.0.0.1:6379; when nothing answers there, a `redis-server` from `PATH` on
 * a free port. Throws {@link RedisNotFoundError} when neither works.
 */
export async function acquireRedis(env: NodeJS.ProcessEnv): Promise<DemoRedis> {
  const url = env.REDIS_URL || DEFAULT_REDIS_URL;
  const display = displayRedisUrl(url);
  const problem = await probeRedis(url);
  if (problem === undefined) return { url, display, note: `using the Redis at ${display}` };
  const binary = findOnPath('redis-server', env.PATH);
  if (!binary) throw new RedisNotFoundError(display, 'no `redis-server` is on your PATH to start one');
  let child: RedisChild;
  try {
    child = await startRedisServer(binary);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new RedisNotFoundError(display, `starting ${binary} failed (${why})`);
  }
  return {
    url: child.url,
    display: child.url,
    child,
    note: `nothing answered at ${display} (${problem}); started ${binary} (pid ${child.pid}) on ${child.url} for the demo's lifetime`,
  };
}
