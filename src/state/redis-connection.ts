import { readFileSync } from 'node:fs';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { ConfigError } from '../config/config-error.js';
import type { RedisConfig } from '../config/schema/redis.js';
import { within } from '../time/within.js';

/**
 * Every Redis connection of shortwatch is made here, from the `redis` config section, for the three
 * topologies: one node (`url`), Sentinel (the sentinels name the master; ioredis follows each failover)
 * and Cluster (ioredis `Cluster`; every key of a deployment shares one hash tag, so every script and queue
 * lives in one slot). Nothing else calls `new Redis(` or `new Cluster(`.
 */

/** A connection of any topology: the commands shortwatch sends exist on both. */
export type RedisClient = Redis | Cluster;

/** Which topology a config describes. */
export type Topology = 'single' | 'sentinel' | 'cluster';

/**
 * What a connection is for: `commands` (stores, scripts, queues: a few retries, then fail), `jobs`
 * (BullMQ workers: block and retry for ever, as BullMQ requires), `subscriber` (pub/sub wake-ups: resubscribes
 * after each reconnect) and `probe` (one question, no retry, no offline queue: `check`, the demo).
 */
export type ConnectionPurpose = 'commands' | 'jobs' | 'subscriber' | 'probe';

/** How one connection is opened; `name` shows in `CLIENT LIST`. */
export interface ConnectionRequest {
  purpose: ConnectionPurpose;
  name?: string;
  connectTimeoutMs?: number;
}

/** The topology a `redis` section selects. */
export function topologyOf(config: RedisConfig): Topology {
  if (config.cluster) return 'cluster';
  if (config.sentinel) return 'sentinel';
  return 'single';
}

/**
 * Opens a connection (lazily: the caller awaits `connect()`) of the configured topology for `purpose`.
 * Throws a {@link ConfigError} at `redis.tls.ca` when the CA file cannot be read.
 */
export function openRedis(config: RedisConfig, request: ConnectionRequest): RedisClient {
  const node = nodeOptions(config, request);
  if (config.cluster) {
    const options: ClusterOptions = {
      lazyConnect: true,
      redisOptions: node,
      // Topology changes (a failover, a resharding) come back as MOVED/ASK; refresh slots then and now and then.
      slotsRefreshInterval: 5_000,
      enableOfflineQueue: request.purpose !== 'probe',
      clusterRetryStrategy: request.purpose === 'probe' ? () => null : retryDelay,
      // Managed clusters announce TLS nodes by name; resolving them to addresses breaks certificate checks.
      ...(node.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
    };
    return new Cluster(config.cluster.nodes.map(parseNode), options);
  }
  if (config.sentinel) {
    const { sentinel } = config;
    return new Redis({
      ...node,
      sentinels: sentinel.nodes.map(parseNode),
      name: sentinel.name,
      role: 'master',
      sentinelUsername: sentinel.username,
      sentinelPassword: sentinel.password?.reveal(),
      // No `failoverDetector`: its +switch-master disconnect, arriving while the client is already
      // reconnecting after the master died, ends the connection for good (status `end`, seen in
      // test/e2e/ha-sentinel.test.ts). Reconnect attempts ask the sentinels each time instead.
      ...(sentinel.tls && node.tls ? { enableTLSForSentinelMode: true, sentinelTLS: node.tls } : {}),
      sentinelRetryStrategy: request.purpose === 'probe' ? () => null : retryDelay,
    });
  }
  return new Redis(config.url.reveal(), node);
}

/**
 * A fail-fast connection to one sentinel of `redis.sentinel.nodes` (with the sentinels' credentials and
 * TLS), to ask it about the master group: `check` and the start-up checks.
 */
export function openSentinel(config: RedisConfig, node: string, connectTimeoutMs = 2_000): Redis {
  const sentinel = config.sentinel;
  if (!sentinel) throw new Error('openSentinel needs redis.sentinel');
  const tls = sentinel.tls ? tlsOptions(config) : undefined;
  return new Redis({
    ...parseNode(node),
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    username: sentinel.username,
    password: sentinel.password?.reveal(),
    ...(tls ? { tls } : {}),
  });
}

/**
 * Connects `client`, or rejects after `ms`: with every sentinel down, ioredis retries for ever and its
 * `connect()` never settles (a retrying cluster or node rejects at the first failure by itself).
 */
export async function connectWithin(client: RedisClient, ms: number): Promise<void> {
  await within(client.connect(), ms, 'no Redis answered');
}

/** `host:port` (or `[v6]:port`) as ioredis wants it. */
export function parseNode(text: string): { host: string; port: number } {
  const colon = text.lastIndexOf(':');
  const host = text.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(text.slice(colon + 1)) };
}

/**
 * Errors a failover answers with on a connection that was fine, after which reconnecting is the cure:
 * `READONLY`, the old master now a replica refusing writes (BullMQ #1928); `LOADING`, a node that restarted
 * or resynced loading its dataset (managed services — ElastiCache, Azure — answer it during an upgrade or
 * a failover, for as long as the load takes).
 */
const FAILOVER_REPLIES = ['READONLY', 'LOADING'] as const;

/**
 * `reconnectOnError` of every connection, BullMQ's too (its connections are duplicates of ours, options
 * included): on a failover reply, reconnect (ioredis asks the sentinels again or refreshes the cluster's
 * slots, and its ready check waits while the node is still loading) and resend the command, so the
 * caller sees a late answer instead of an error. A Redis error reply carries no code, only its text's
 * first word.
 */
export function reconnectOnFailover(error: Error): 2 | false {
  const word = error.message.split(' ', 1)[0];
  return FAILOVER_REPLIES.some((reply) => reply === word) ? 2 : false;
}

/** The longest wait between two reconnect attempts (after a failover, the new master is found within it). */
export const RECONNECT_DELAY_MAX_MS = 2_000;

// A reconnect now and then rather than a burst: 0.2 s, growing to the maximum.
function retryDelay(times: number): number {
  return Math.min(200 * times, RECONNECT_DELAY_MAX_MS);
}

function nodeOptions(config: RedisConfig, request: ConnectionRequest): RedisOptions {
  const probe = request.purpose === 'probe';
  const tls = tlsOptions(config);
  return {
    lazyConnect: true,
    connectTimeout: request.connectTimeoutMs ?? 5_000,
    // BullMQ workers and subscribers must never give up a command; stores fail after a few retries.
    maxRetriesPerRequest: probe ? 0 : request.purpose === 'commands' ? 3 : null,
    ...(probe ? { enableOfflineQueue: false, retryStrategy: () => null } : { retryStrategy: retryDelay }),
    reconnectOnError: reconnectOnFailover,
    ...(request.name === undefined ? {} : { connectionName: request.name }),
    // A url carries its own credentials; Sentinel and Cluster nodes take them from the section.
    ...(config.sentinel || config.cluster
      ? { username: config.username, password: config.password?.reveal() }
      : {}),
    ...(tls ? { tls } : {}),
  };
}

function tlsOptions(config: RedisConfig): TlsOptions | undefined {
  if (!config.tls) return undefined;
  const { ca, servername, rejectUnauthorized } = config.tls;
  return {
    rejectUnauthorized,
    ...(servername === undefined ? {} : { servername }),
    ...(ca === undefined ? {} : { ca: readCa(ca) }),
  };
}

function readCa(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new ConfigError('config', [
      { path: 'redis.tls.ca', message: `cannot read file ${path} (${reason})` },
    ]);
  }
}
