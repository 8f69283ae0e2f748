import { hostname } from "node:os";
import { QueueSet } from "../jobs/queue-set.js";
import { RedisHealth } from "../ops/redis-health.js";
import { DeploymentLedger } from "../state/deployment-ledger.js";
import { keyRoot } from "../state/keys.js";
import { connectWithin, openRedis } from "../state/redis-connection.js";
import { redisErrorFields } from "../state/redis-error-fields.js";
import { redisAddress, redisProblemOf } from "../state/redis-problem.js";
import { unlessSecretUnread } from "../unread-secret-parts.js";
import { fingerprintOf } from "../upstream-clients.js";
const UNREAD_KEY_FINGERPRINT = "unread-key";
const CONNECT_WITHIN_MS = 1e4;
class RedisUnavailableError extends Error {
  name = "RedisUnavailableError";
}
function isRedisUnavailableError(error) {
  return error instanceof RedisUnavailableError;
}
function connectionNameOf(config) {
  return `${config.redis.prefix}:${hostname()}-${process.pid}`;
}
async function connect(config, logger) {
  const name = connectionNameOf(config);
  const redis = openRedis(config.redis, { purpose: "commands", name: `${name}:app` });
  const workerRedis = openRedis(config.redis, { purpose: "jobs", name: `${name}:jobs` });
  let cause;
  const quiet = (error) => {
    cause ??= error;
    logger.debug({ error: redisErrorFields(error) }, "redis connect");
  };
  for (const client of [redis, workerRedis]) client.on("error", quiet);
  try {
    await Promise.all([redis, workerRedis].map((client) => connectWithin(client, CONNECT_WITHIN_MS)));
  } catch (error) {
    redis.disconnect();
    workerRedis.disconnect();
    const named = redisProblemOf(cause, config.redis) ?? redisProblemOf(error, config.redis);
    if (named) throw named;
    const reason = redisErrorFields(cause ?? error).message;
    throw new RedisUnavailableError(`${redisAddress(config.redis)}: ${reason}`);
  }
  for (const client of [redis, workerRedis]) client.off("error", quiet);
  const health = new RedisHealth(logger);
  health.watchClient("app", redis);
  health.watchClient("jobs", workerRedis);
  return { redis, workerRedis, health };
}
function configFingerprint(config) {
  return unlessSecretUnread(
    () => fingerprintOf(config),
    () => UNREAD_KEY_FINGERPRINT
  );
}
async function ledgerOf(config, redis) {
  const configured = configFingerprint(config);
  if (configured !== UNREAD_KEY_FINGERPRINT) return configured;
  const recorded = await new DeploymentLedger(redis, keyRoot(config.redis.prefix)).recorded();
  return recorded ?? UNREAD_KEY_FINGERPRINT;
}
function budgetCaps(config) {
  return {
    perMinute: config.budget.perMinute,
    perDay: config.budget.perDay,
    reserve: config.budget.reserve,
    minuteMs: config.budget.minuteWindow,
    dayMs: config.budget.dayWindow
  };
}
function openQueues(redis, prefix, health) {
  const queues = new QueueSet(redis, prefix);
  for (const queue of queues.all()) health.watchBull(`queue:${queue.name}`, queue);
  return queues;
}
export {
  RedisUnavailableError,
  budgetCaps,
  configFingerprint,
  connect,
  connectionNameOf,
  isRedisUnavailableError,
  ledgerOf,
  openQueues
};
