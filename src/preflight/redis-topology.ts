import type { Redis } from 'ioredis';
import type { RedisConfig } from '../config/schema/redis.js';
import { openSentinel, type RedisClient, type Topology, topologyOf } from '../state/redis-connection.js';
import { redisErrorFields } from '../state/redis-error-fields.js';
import { checkEvictionPolicy, describeEvictionPolicy } from '../state/redis-eviction.js';
import { checkPersistence, persistenceWarning } from './redis-persistence.js';

// What `shortwatch check` and every daemon start say about the Redis they reached: the topology, each
// node's role, and what would lose data on a failure: no persistence on a master, no replica for Sentinel
// to promote (or for a cluster master to fail over to), an eviction policy on a cluster node. Warnings
// name the setting and why; none stops a start.

/** One node the topology reached and its role. */
export interface RedisNode {
  address: string;
  role: 'master' | 'replica' | 'sentinel' | 'unreachable';
  /** What the node or a sentinel says besides the role (e.g. `s_down`). */
  note?: string;
}

/** The topology reached, its nodes, and the warnings about them. */
export interface TopologyReport {
  topology: Topology;
  /** One line: `sentinel: master mymaster at 10.0.0.5:6379, 1 replica, 3 sentinels`. */
  summary: string;
  nodes: RedisNode[];
  warnings: string[];
}

const ROLE = /^role:(\S+)\s*$/m;
const CONNECTED_REPLICAS = /^connected_slaves:(\d+)\s*$/m;

/** Inspects the Redis `client` reached (a connection of the configured topology). */
export async function inspectTopology(client: RedisClient, config: RedisConfig): Promise<TopologyReport> {
  if (config.cluster && 'nodes' in client)
    return inspectCluster(client.nodes('master'), client.nodes('slave'));
  if (config.sentinel && !('nodes' in client)) return inspectSentinel(client, config);
  if (!('nodes' in client)) return inspectSingle(client);
  throw new Error(`a ${topologyOf(config)} config got a cluster connection`);
}

async function inspectSingle(client: Redis): Promise<TopologyReport> {
  const address = addressOf(client);
  const info = await client.info('replication');
  const role = ROLE.exec(info)?.[1] === 'master' ? 'master' : 'replica';
  const warnings: string[] = [];
  if (role === 'replica') {
    warnings.push(
      `redis.url reaches ${address}, a replica: every write fails with READONLY. Point redis.url at the master, or use redis.sentinel.`,
    );
  } else {
    const persistence = persistenceWarning(address, await checkPersistence(client));
    if (persistence) warnings.push(persistence);
  }
  return {
    topology: 'single',
    summary: `single node ${address} (${role})`,
    nodes: [{ address, role }],
    warnings,
  };
}

async function inspectSentinel(client: Redis, config: RedisConfig): Promise<TopologyReport> {
  const sentinel = config.sentinel;
  if (!sentinel) throw new Error('inspectSentinel needs redis.sentinel');
  const nodes: RedisNode[] = [];
  const warnings: string[] = [];
  let replicasSeen: RedisNode[] | undefined;
  let masterSeen: string | undefined;
  for (const address of sentinel.nodes) {
    const asked = await askSentinel(config, address, sentinel.name);
    nodes.push(asked.self);
    replicasSeen ??= asked.replicas;
    masterSeen ??= asked.master;
  }
  const master = masterSeen ?? 'the master';
  const info = await client.info('replication');
  const connected = Number(CONNECTED_REPLICAS.exec(info)?.[1] ?? 0);
  nodes.unshift({ address: master, role: ROLE.exec(info)?.[1] === 'master' ? 'master' : 'replica' });
  nodes.push(...(replicasSeen ?? []));
  const upSentinels = nodes.filter((n) => n.role === 'sentinel').length;
  if (connected === 0) {
    const named = replicasSeen?.length ?? 0;
    // redis.durability auto waits for a replica the sentinels name, down or not (state/durability.ts).
    const held =
      named > 0 && config.durability.replicas === 'auto'
        ? ` The sentinels name ${named} replica${named === 1 ? '' : 's'} that ${named === 1 ? 'is' : 'are'} not connected: messages with events wait for one (redis.durability.replicas auto) until it is back, or the sentinels forget it (SENTINEL RESET ${sentinel.name}).`
        : '';
    warnings.push(
      `redis.sentinel: the master ${master} of ${sentinel.name} has no connected replica, so a failover has nothing to promote and losing the master stops shortwatch. Run at least one replica (replicaof ${master}).${held}`,
    );
  }
  if (upSentinels < 3) {
    warnings.push(
      `redis.sentinel.nodes: ${upSentinels} of ${sentinel.nodes.length} sentinels answer; with fewer than 3 a majority cannot agree on a failover after losing one. Run 3 sentinels on separate hosts.`,
    );
  }
  const persistence = persistenceWarning(master, await checkPersistence(client));
  if (persistence) warnings.push(persistence);
  const summary = `sentinel: master ${sentinel.name} at ${master}, ${connected} replica${connected === 1 ? '' : 's'}, ${upSentinels} of ${sentinel.nodes.length} sentinels answer`;
  return { topology: 'sentinel', summary, nodes, warnings };
}

/** One sentinel's own state, and the replicas it knows of the master group. */
async function askSentinel(
  config: RedisConfig,
  address: string,
  name: string,
): Promise<{ self: RedisNode; master?: string; replicas?: RedisNode[] }> {
  const sentinel = openSentinel(config, address);
  sentinel.on('error', () => undefined);
  try {
    await sentinel.connect();
    const master = await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
    const replicas = await sentinel.call('SENTINEL', 'REPLICAS', name);
    return {
      self: { address, role: 'sentinel' },
      ...(Array.isArray(master) && master.length === 2 ? { master: `${master[0]}:${master[1]}` } : {}),
      replicas: parseReplicas(replicas),
    };
  } catch (error) {
    return { self: { address, role: 'unreachable', note: redisErrorFields(error).message } };
  } finally {
    sentinel.disconnect();
  }
}

/** `SENTINEL REPLICAS` answers a list of flat [field, value, …] lists. */
function parseReplicas(reply: unknown): RedisNode[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((entry: unknown) => {
    if (!Array.isArray(entry)) return [];
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < entry.length; i += 2) fields.set(String(entry[i]), String(entry[i + 1]));
    const flags = fields.get('flags') ?? '';
    const down = flags.split(',').filter((flag) => flag.endsWith('_down') || flag === 'disconnected');
    const node: RedisNode = { address: `${fields.get('ip')}:${fields.get('port')}`, role: 'replica' };
    return [down.length > 0 ? { ...node, note: down.join(',') } : node];
  });
}

async function inspectCluster(masters: Redis[], replicas: Redis[]): Promise<TopologyReport> {
  const nodes: RedisNode[] = [
    ...masters.map((node) => ({ address: addressOf(node), role: 'master' as const })),
    ...replicas.map((node) => ({ address: addressOf(node), role: 'replica' as const })),
  ];
  const warnings: string[] = [];
  for (const master of masters) {
    const address = addressOf(master);
    const connected = Number(CONNECTED_REPLICAS.exec(await master.info('replication'))?.[1] ?? 0);
    if (connected === 0) {
      warnings.push(
        `redis.cluster: the master ${address} has no replica: losing it takes its slots (and a deployment whose tag hashes there) down until it is back. Give every master a replica.`,
      );
    }
    const persistence = persistenceWarning(address, await checkPersistence(master));
    if (persistence) warnings.push(persistence);
    const eviction = await checkEvictionPolicy(master);
    if (eviction.state !== 'noeviction') warnings.push(`${address}: ${describeEvictionPolicy(eviction)}`);
  }
  const summary = `cluster: ${masters.length} masters, ${replicas.length} replicas`;
  return { topology: 'cluster', summary, nodes, warnings };
}

function addressOf(node: Redis): string {
  const { host, port } = node.options;
  return `${host ?? '?'}:${port ?? '?'}`;
}
