import type { RedisConfig } from '../config/schema/redis.js';
import { TimedOutError } from '../time/within.js';
import { topologyOf } from './redis-connection.js';
import { redactUrlCredentials } from './redis-error-fields.js';

/**
 * What went wrong with Redis, named for the operator: each condition met at start or while running, with
 * what to do about it. `docs/operations.md` ("Bad settings") lists them with what `check` and `start` say.
 */
export type RedisCondition =
  | 'dns'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'auth'
  | 'noperm'
  | 'replica'
  | 'oom'
  | 'loading';

const REMEDY: Record<RedisCondition, string> = {
  dns: 'the host name does not resolve: check the host in redis.url / REDIS_URL (and the DNS of this machine)',
  refused:
    "nothing listens there: start one (e.g. `redis-server`, your package manager's redis package, or `docker compose up -d redis`) or point redis.url / REDIS_URL at one",
  timeout:
    'no answer in time: check that the address is right and that no firewall drops the connection (or that TLS is on at both ends)',
  tls: 'the TLS handshake failed or never ended: use rediss:// (or redis.tls) only with a server that speaks TLS, check redis.tls (ca, servername), and that nothing drops the connection',
  auth: 'the credentials were refused: check the user name and password in redis.url / REDIS_URL (or redis.username, redis.password)',
  noperm:
    "the ACL user may not run a command shortwatch needs: give it read, write and script rights on the deployment's keys (e.g. `ACL SETUSER <user> ~<prefix>* +@all`)",
  replica:
    'it is a read-only replica and every write fails with READONLY: point redis.url at the master, or use redis.sentinel to follow failovers',
  oom: 'it is at its maxmemory with maxmemory-policy noeviction, so every write fails with OOM: raise maxmemory or free memory (never switch to an evicting policy: it drops state)',
  loading:
    'it is loading its dataset after a restart: wait until the load ends (INFO persistence, loading:0), then start again',
};

/** A Redis condition at one address, as the CLI and the log say it. */
export class RedisProblemError extends Error {
  override readonly name = 'RedisProblemError';

  constructor(
    readonly condition: RedisCondition,
    readonly address: string,
    readonly reply: string,
  ) {
    super(`Redis at ${address}: ${REMEDY[condition]} (${reply})`);
  }
}

/** Type guard for {@link RedisProblemError}. */
export function isRedisProblemError(error: unknown): error is RedisProblemError {
  return error instanceof RedisProblemError;
}

// Redis error replies carry no code, only their text's first word.
const REPLY_CONDITIONS: Record<string, RedisCondition> = {
  WRONGPASS: 'auth',
  NOAUTH: 'auth',
  NOPERM: 'noperm',
  READONLY: 'replica',
  OOM: 'oom',
  LOADING: 'loading',
};

const CODE_CONDITIONS: Record<string, RedisCondition> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timeout',
  EHOSTUNREACH: 'timeout',
  ENETUNREACH: 'timeout',
};

/**
 * The condition an error from a connection or a command shows, if it is one of the named ones; over TLS
 * a connection that never answers is most often a handshake with a server that does not speak TLS. Pure.
 */
export function conditionOf(error: unknown, tls: boolean): RedisCondition | undefined {
  const condition = plainConditionOf(error, tls);
  return tls && condition === 'timeout' ? 'tls' : condition;
}

function plainConditionOf(error: unknown, tls: boolean): RedisCondition | undefined {
  if (!(error instanceof Error)) return undefined;
  const word = error.message.split(' ', 1)[0] ?? '';
  const byReply = REPLY_CONDITIONS[word.replace(/:$/, '')];
  if (byReply) return byReply;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  const byCode = CODE_CONDITIONS[code];
  if (byCode) return byCode;
  if (code.startsWith('ERR_TLS') || /certificate|TLS|SSL|wrong version number/i.test(error.message))
    return 'tls';
  // A TLS client talking to a plain server, or the reverse, sees the socket reset or closed at once.
  if (tls && (code === 'ECONNRESET' || /Connection is closed/.test(error.message))) return 'tls';
  if (error instanceof TimedOutError) return 'timeout';
  return undefined;
}

/** The address a `redis` section points at, without credentials: for every message about it. */
export function redisAddress(config: RedisConfig): string {
  const topology = topologyOf(config);
  if (topology === 'cluster') return `cluster ${config.cluster?.nodes.join(', ') ?? ''}`;
  if (topology === 'sentinel')
    return `sentinel master "${config.sentinel?.name ?? ''}" via ${config.sentinel?.nodes.join(', ') ?? ''}`;
  try {
    const url = new URL(config.url.reveal());
    return `${url.hostname}:${url.port || '6379'}`;
  } catch {
    return redactUrlCredentials(config.url.reveal());
  }
}

/** Whether the section's connections use TLS (a rediss:// URL or a `tls` block). */
export function usesTls(config: RedisConfig): boolean {
  if (config.tls) return true;
  return topologyOf(config) === 'single' && config.url.reveal().startsWith('rediss:');
}

/** The error as a named problem at the section's address, or undefined when it is none of the named ones. */
export function redisProblemOf(error: unknown, config: RedisConfig): RedisProblemError | undefined {
  if (isRedisProblemError(error)) return error;
  const condition = conditionOf(error, usesTls(config));
  if (condition === undefined) return undefined;
  const reply = error instanceof Error ? redactUrlCredentials(error.message.split('\n')[0] ?? '') : '';
  return new RedisProblemError(condition, redisAddress(config), reply);
}
