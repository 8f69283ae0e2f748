import { openSentinel, topologyOf } from "../state/redis-connection.js";
import { redisErrorFields } from "../state/redis-error-fields.js";
import { checkEvictionPolicy, describeEvictionPolicy } from "../state/redis-eviction.js";
import { checkPersistence, persistenceWarning } from "./redis-persistence.js";
const ROLE = /^role:(\S+)\s*$/m;
const CONNECTED_REPLICAS = /^connected_slaves:(\d+)\s*$/m;
async function inspectTopology(client, config) {
  if (config.cluster && "nodes" in client)
    return inspectCluster(client.nodes("master"), client.nodes("slave"));
  if (config.sentinel && !("nodes" in client)) return inspectSentinel(client, config);
  if (!("nodes" in client)) return inspectSingle(client);
  throw new Error(`a ${topologyOf(config)} config got a cluster connection`);
}
async function inspectSingle(client) {
  const address = addressOf(client);
  const info = await client.info("replication");
  const role = ROLE.exec(info)?.[1] === "master" ? "master" : "replica";
  const warnings = [];
  if (role === "replica") {
    warnings.push(
      `redis.url reaches ${address}, a replica: every write fails with READONLY. Point redis.url at the master, or use redis.sentinel.`
    );
  } else {
    const persistence = persistenceWarning(address, await checkPersistence(client));
    if (persistence) warnings.push(persistence);
  }
  return {
    topology: "single",
    summary: `single node ${address} (${role})`,
    nodes: [{ address, role }],
    warnings
  };
}
async function inspectSentinel(client, config) {
  const sentinel = config.sentinel;
  if (!sentinel) throw new Error("inspectSentinel needs redis.sentinel");
  const nodes = [];
  const warnings = [];
  let replicasSeen;
  let masterSeen;
  for (const address of sentinel.nodes) {
    const asked = await askSentinel(config, address, sentinel.name);
    nodes.push(asked.self);
    replicasSeen ??= asked.replicas;
    masterSeen ??= asked.master;
  }
  const master = masterSeen ?? "the master";
  const info = await client.info("replication");
  const connected = Number(CONNECTED_REPLICAS.exec(info)?.[1] ?? 0);
  nodes.unshift({ address: master, role: ROLE.exec(info)?.[1] === "master" ? "master" : "replica" });
  nodes.push(...replicasSeen ?? []);
  const upSentinels = nodes.filter((n) => n.role === "sentinel").length;
  if (connected === 0) {
    warnings.push(
      `redis.sentinel: the master ${master} of ${sentinel.name} has no connected replica, so a failover has nothing to promote and losing the master stops shortwatch. Run at least one replica (replicaof ${master}).`
    );
  }
  if (upSentinels < 3) {
    warnings.push(
      `redis.sentinel.nodes: ${upSentinels} of ${sentinel.nodes.length} sentinels answer; with fewer than 3 a majority cannot agree on a failover after losing one. Run 3 sentinels on separate hosts.`
    );
  }
  const persistence = persistenceWarning(master, await checkPersistence(client));
  if (persistence) warnings.push(persistence);
  const summary = `sentinel: master ${sentinel.name} at ${master}, ${connected} replica${connected === 1 ? "" : "s"}, ${upSentinels} of ${sentinel.nodes.length} sentinels answer`;
  return { topology: "sentinel", summary, nodes, warnings };
}
async function askSentinel(config, address, name) {
  const sentinel = openSentinel(config, address);
  sentinel.on("error", () => void 0);
  try {
    await sentinel.connect();
    const master = await sentinel.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", name);
    const replicas = await sentinel.call("SENTINEL", "REPLICAS", name);
    return {
      self: { address, role: "sentinel" },
      ...Array.isArray(master) && master.length === 2 ? { master: `${master[0]}:${master[1]}` } : {},
      replicas: parseReplicas(replicas)
    };
  } catch (error) {
    return { self: { address, role: "unreachable", note: redisErrorFields(error).message } };
  } finally {
    sentinel.disconnect();
  }
}
function parseReplicas(reply) {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((entry) => {
    if (!Array.isArray(entry)) return [];
    const fields = /* @__PURE__ */ new Map();
    for (let i = 0; i + 1 < entry.length; i += 2) fields.set(String(entry[i]), String(entry[i + 1]));
    const flags = fields.get("flags") ?? "";
    const down = flags.split(",").filter((flag) => flag.endsWith("_down") || flag === "disconnected");
    const node = { address: `${fields.get("ip")}:${fields.get("port")}`, role: "replica" };
    return [down.length > 0 ? { ...node, note: down.join(",") } : node];
  });
}
async function inspectCluster(masters, replicas) {
  const nodes = [
    ...masters.map((node) => ({ address: addressOf(node), role: "master" })),
    ...replicas.map((node) => ({ address: addressOf(node), role: "replica" }))
  ];
  const warnings = [];
  for (const master of masters) {
    const address = addressOf(master);
    const connected = Number(CONNECTED_REPLICAS.exec(await master.info("replication"))?.[1] ?? 0);
    if (connected === 0) {
      warnings.push(
        `redis.cluster: the master ${address} has no replica: losing it takes its slots (and a deployment whose tag hashes there) down until it is back. Give every master a replica.`
      );
    }
    const persistence = persistenceWarning(address, await checkPersistence(master));
    if (persistence) warnings.push(persistence);
    const eviction = await checkEvictionPolicy(master);
    if (eviction.state !== "noeviction") warnings.push(`${address}: ${describeEvictionPolicy(eviction)}`);
  }
  const summary = `cluster: ${masters.length} masters, ${replicas.length} replicas`;
  return { topology: "cluster", summary, nodes, warnings };
}
function addressOf(node) {
  const { host, port } = node.options;
  return `${host ?? "?"}:${port ?? "?"}`;
}
export {
  inspectTopology
};
