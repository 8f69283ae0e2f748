import { RedisNotFoundError } from "./redis-not-found-error.js";
import { displayRedisUrl, probeRedis } from "./redis-probe.js";
import { findOnPath, startRedisServer } from "./redis-server-child.js";
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
async function acquireRedis(env) {
  const url = env.REDIS_URL || DEFAULT_REDIS_URL;
  const display = displayRedisUrl(url);
  const problem = await probeRedis(url);
  if (problem === void 0) return { url, display, note: `using the Redis at ${display}` };
  const binary = findOnPath("redis-server", env.PATH);
  if (!binary) throw new RedisNotFoundError(display, "no `redis-server` is on your PATH to start one");
  let child;
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
    note: `nothing answered at ${display} (${problem}); started ${binary} (pid ${child.pid}) on ${child.url} for the demo's lifetime`
  };
}
export {
  DEFAULT_REDIS_URL,
  acquireRedis
};
