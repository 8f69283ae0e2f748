import { TimedOutError } from "../time/within.js";
import { topologyOf } from "./redis-connection.js";
import { redactUrlCredentials } from "./redis-error-fields.js";
const REMEDY = {
  dns: "the host name does not resolve: check the host in redis.url / REDIS_URL (and the DNS of this machine)",
  refused: "nothing listens there: start one (e.g. `redis-server`, your package manager's redis package, or `docker compose up -d redis`) or point redis.url / REDIS_URL at one",
  timeout: "no answer in time: check that the address is right and that no firewall drops the connection (or that TLS is on at both ends)",
  tls: "the TLS handshake failed or never ended: use rediss:// (or redis.tls) only with a server that speaks TLS, check redis.tls (ca, servername), and that nothing drops the connection",
  auth: "the credentials were refused: check the user name and password in redis.url / REDIS_URL (or redis.username, redis.password)",
  noperm: "the ACL user may not run a command shortwatch needs: give it read, write and script rights on the deployment's keys (e.g. `ACL SETUSER <user> ~<prefix>* +@all`)",
  replica: "it is a read-only replica and every write fails with READONLY: point redis.url at the master, or use redis.sentinel to follow failovers",
  oom: "it is at its maxmemory with maxmemory-policy noeviction, so every write fails with OOM: raise maxmemory or free memory (never switch to an evicting policy: it drops state)",
  loading: "it is loading its dataset after a restart: wait until the load ends (INFO persistence, loading:0), then start again"
};
class RedisProblemError extends Error {
  constructor(condition, address, reply) {
    super(`Redis at ${address}: ${REMEDY[condition]} (${reply})`);
    this.condition = condition;
    this.address = address;
    this.reply = reply;
  }
  condition;
  address;
  reply;
  name = "RedisProblemError";
}
function isRedisProblemError(error) {
  return error instanceof RedisProblemError;
}
const REPLY_CONDITIONS = {
  WRONGPASS: "auth",
  NOAUTH: "auth",
  NOPERM: "noperm",
  READONLY: "replica",
  OOM: "oom",
  LOADING: "loading"
};
const CODE_CONDITIONS = {
  ENOTFOUND: "dns",
  EAI_AGAIN: "dns",
  EAI_FAIL: "dns",
  ECONNREFUSED: "refused",
  ETIMEDOUT: "timeout",
  EHOSTUNREACH: "timeout",
  ENETUNREACH: "timeout"
};
function conditionOf(error, tls) {
  const condition = plainConditionOf(error, tls);
  return tls && condition === "timeout" ? "tls" : condition;
}
function plainConditionOf(error, tls) {
  if (!(error instanceof Error)) return void 0;
  const word = error.message.split(" ", 1)[0] ?? "";
  const byReply = REPLY_CONDITIONS[word.replace(/:$/, "")];
  if (byReply) return byReply;
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  const byCode = CODE_CONDITIONS[code];
  if (byCode) return byCode;
  if (code.startsWith("ERR_TLS") || /certificate|TLS|SSL|wrong version number/i.test(error.message))
    return "tls";
  if (tls && (code === "ECONNRESET" || /Connection is closed/.test(error.message))) return "tls";
  if (error instanceof TimedOutError) return "timeout";
  return void 0;
}
function redisAddress(config) {
  const topology = topologyOf(config);
  if (topology === "cluster") return `cluster ${config.cluster?.nodes.join(", ") ?? ""}`;
  if (topology === "sentinel")
    return `sentinel master "${config.sentinel?.name ?? ""}" via ${config.sentinel?.nodes.join(", ") ?? ""}`;
  try {
    const url = new URL(config.url.reveal());
    return `${url.hostname}:${url.port || "6379"}`;
  } catch {
    return redactUrlCredentials(config.url.reveal());
  }
}
function usesTls(config) {
  if (config.tls) return true;
  return topologyOf(config) === "single" && config.url.reveal().startsWith("rediss:");
}
function redisProblemOf(error, config) {
  if (isRedisProblemError(error)) return error;
  const condition = conditionOf(error, usesTls(config));
  if (condition === void 0) return void 0;
  const reply = error instanceof Error ? redactUrlCredentials(error.message.split("\n")[0] ?? "") : "";
  return new RedisProblemError(condition, redisAddress(config), reply);
}
export {
  RedisProblemError,
  conditionOf,
  isRedisProblemError,
  redisAddress,
  redisProblemOf,
  usesTls
};
