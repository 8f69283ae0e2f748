import { hostname } from 'node:os';
import type { Config } from '../config/schema.js';
import { QueueSet } from '../jobs/queue-set.js';
import { RedisHealth } from '../ops/redis-health.js';
import { DeploymentLedger } from '../state/deployment-ledger.js';
import { keyRoot } from '../state/keys.js';
import { connectWithin, openRedis, type RedisClient } from '../state/redis-connection.js';
import { redisErrorFields } from '../state/redis-error-fields.js';
import { redisAddress, redisProblemOf } from '../state/redis-problem.js';
import type { Logger } from '../telemetry/logger.js';
import { unlessSecretUnread } from '../unread-secret-parts.js';
import { fingerprintOf } from '../upstream-clients.js';

/**
 * The fingerprint of a config whose API key could not be read (a command that sends nothing was loaded
 * without it): no client can send without the key, and no daemon starts without it (see startDaemon).
 */
const UNREAD_KEY_FINGERPRINT = 'unread-key';

/** How long a command or a start waits for its first Redis connection before it says why there is none. */
const CONNECT_WITHIN_MS = 10_000;

/** Redis did not answer; the CLI explains how to get one. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Type guard for {@link RedisUnavailableError}. */
export function isRedisUnavailableError(error: unknown): error is RedisUnavailableError {
  return error instanceof RedisUnavailableError;
}

/** What every connection of this process is called in `CLIENT LIST`: deployment, host and pid. */
export function connectionNameOf(config: Config): string {
  return `${config.redis.prefix}:${hostname()}-${process.pid}`;
}

/** The two connections an App starts with, watched by one RedisHealth. */
export interface Connections {
  redis: RedisClient;
  workerRedis: RedisClient;
  health: RedisHealth;
}

/** Opens the command and job connections; fails fast (RedisUnavailableError) when Redis does not answer. */
export async function connect(config: Config, logger: Logger): Promise<Connections> {
  // Named so that `CLIENT LIST` tells which deployment and process owns each connection.
  const name = connectionNameOf(config);
  const redis = openRedis(config.redis, { purpose: 'commands', name: `${name}:app` });
  const workerRedis = openRedis(config.redis, { purpose: 'jobs', name: `${name}:jobs` });
  // Without a listener ioredis prints reconnect errors itself, possibly with the URL. A Redis that does
  // not answer at start is the caller's error to report (RedisUnavailableError), not an outage to log.
  // The first error a connection met says why (a DNS failure, a refused password, a TLS handshake): the
  // promise of `connect()` only says "Connection is closed.".
  let cause: Error | undefined;
  const quiet = (error: Error) => {
    cause ??= error;
    logger.debug({ error: redisErrorFields(error) }, 'redis connect');
  };
  for (const client of [redis, workerRedis]) client.on('error', quiet);
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
  for (const client of [redis, workerRedis]) client.off('error', quiet);
  const health = new RedisHealth(logger);
  health.watchClient('app', redis);
  health.watchClient('jobs', workerRedis);
  return { redis, workerRedis, health };
}

/** The fingerprint of the config's credential, or that of a config whose key was not read. */
export function configFingerprint(config: Config): string {
  return unlessSecretUnread(
    () => fingerprintOf(config),
    () => UNREAD_KEY_FINGERPRINT,
  );
}

/**
 * The fingerprint of the credential whose ledger the budget counts in: the configured base URL and key,
 * or, for a command loaded without the key, the one the deployment's daemons recorded.
 */
export async function ledgerOf(config: Config, redis: RedisClient): Promise<string> {
  const configured = configFingerprint(config);
  if (configured !== UNREAD_KEY_FINGERPRINT) return configured;
  const recorded = await new DeploymentLedger(redis, keyRoot(config.redis.prefix)).recorded();
  return recorded ?? UNREAD_KEY_FINGERPRINT;
}

/** The budget's caps and window lengths in a config. */
export function budgetCaps(config: Config) {
  return {
    perMinute: config.budget.perMinute,
    perDay: config.budget.perDay,
    reserve: config.budget.reserve,
    minuteMs: config.budget.minuteWindow,
    dayMs: config.budget.dayWindow,
  };
}

/** The BullMQ queues on `redis`, each watched for Redis errors (opened on first use: see `App.queues`). */
export function openQueues(redis: RedisClient, prefix: string, health: RedisHealth): QueueSet {
  const queues = new QueueSet(redis, prefix);
  for (const queue of queues.all()) health.watchBull(`queue:${queue.name}`, queue);
  return queues;
}
