import { readFileSync } from "node:fs";
import { Cluster, Redis } from "ioredis";
import { ConfigError } from "../config/config-error.js";
import { within } from "../time/within.js";
function topologyOf(config) {
  if (config.cluster) return "cluster";
  if (config.sentinel) return "sentinel";
  return "single";
}
function openRedis(config, request) {
  const node = nodeOptions(config, request);
  if (config.cluster) {
    const options = {
      lazyConnect: true,
      redisOptions: node,
      // Topology changes (a failover, a resharding) come back as MOVED/ASK; refresh slots then and now and then.
      slotsRefreshInterval: 5e3,
      enableOfflineQueue: request.purpose !== "probe",
      clusterRetryStrategy: request.purpose === "probe" ? () => null : retryDelay,
      // Managed clusters announce TLS nodes by name; resolving them to addresses breaks certificate checks.
      ...node.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}
    };
    return new Cluster(config.cluster.nodes.map(parseNode), options);
  }
  if (config.sentinel) {
    const { sentinel } = config;
    return new Redis({
      ...node,
      sentinels: sentinel.nodes.map(parseNode),
      name: sentinel.name,
      role: "master",
      sentinelUsername: sentinel.username,
      sentinelPassword: sentinel.password?.reveal(),
      // No `failoverDetector`: its +switch-master disconnect, arriving while the client is already
      // reconnecting after the master died, ends the connection for good (status `end`, seen in
      // test/e2e/ha-sentinel.test.ts). Reconnect attempts ask the sentinels each time instead.
      ...sentinel.tls && node.tls ? { enableTLSForSentinelMode: true, sentinelTLS: node.tls } : {},
      sentinelRetryStrategy: request.purpose === "probe" ? () => null : retryDelay
    });
  }
  return new Redis(config.url.reveal(), node);
}
function openSentinel(config, node, connectTimeoutMs = 2e3) {
  const sentinel = config.sentinel;
  if (!sentinel) throw new Error("openSentinel needs redis.sentinel");
  const tls = sentinel.tls ? tlsOptions(config) : void 0;
  return new Redis({
    ...parseNode(node),
    lazyConnect: true,
    connectTimeout: connectTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    username: sentinel.username,
    password: sentinel.password?.reveal(),
    ...tls ? { tls } : {}
  });
}
async function connectWithin(client, ms) {
  await within(client.connect(), ms, "no Redis answered");
}
function parseNode(text) {
  const colon = text.lastIndexOf(":");
  const host = text.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
  return { host, port: Number(text.slice(colon + 1)) };
}
const FAILOVER_REPLIES = ["READONLY", "LOADING"];
function reconnectOnFailover(error) {
  const word = error.message.split(" ", 1)[0];
  return FAILOVER_REPLIES.some((reply) => reply === word) ? 2 : false;
}
const RECONNECT_DELAY_MAX_MS = 2e3;
function retryDelay(times) {
  return Math.min(200 * times, RECONNECT_DELAY_MAX_MS);
}
function nodeOptions(config, request) {
  const probe = request.purpose === "probe";
  const tls = tlsOptions(config);
  return {
    lazyConnect: true,
    connectTimeout: request.connectTimeoutMs ?? 5e3,
    // BullMQ workers and subscribers must never give up a command; stores fail after a few retries.
    maxRetriesPerRequest: probe ? 0 : request.purpose === "commands" ? 3 : null,
    ...probe ? { enableOfflineQueue: false, retryStrategy: () => null } : { retryStrategy: retryDelay },
    reconnectOnError: reconnectOnFailover,
    ...request.name === void 0 ? {} : { connectionName: request.name },
    // A url carries its own credentials; Sentinel and Cluster nodes take them from the section.
    ...config.sentinel || config.cluster ? { username: config.username, password: config.password?.reveal() } : {},
    ...tls ? { tls } : {}
  };
}
function tlsOptions(config) {
  if (!config.tls) return void 0;
  const { ca, servername, rejectUnauthorized } = config.tls;
  return {
    rejectUnauthorized,
    ...servername === void 0 ? {} : { servername },
    ...ca === void 0 ? {} : { ca: readCa(ca) }
  };
}
function readCa(path) {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : "unreadable";
    throw new ConfigError("config", [
      { path: "redis.tls.ca", message: `cannot read file ${path} (${reason})` }
    ]);
  }
}
export {
  RECONNECT_DELAY_MAX_MS,
  connectWithin,
  openRedis,
  openSentinel,
  parseNode,
  reconnectOnFailover,
  topologyOf
};
