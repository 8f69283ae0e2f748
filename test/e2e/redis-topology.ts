import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { findOnPath, freePort } from '../../src/demo/redis-server-child.js';
import { type FreezingProxy, startFreezingProxy } from '../helpers/freezing-proxy.js';
import { waitFor } from './harness.js';

// Private Redis topologies on loopback for the HA tests: a three-master Redis Cluster, and Sentinel (one
// master, one replica, three sentinels). Every process is started here on a free port with its files in
// a temp dir, and stopped by its pid (never by name); `stop()` is safe to call from afterAll whatever
// state the test left them in, and a test process that dies takes them with it.

const run = promisify(execFile);

/** `redis-server` and `redis-cli` on PATH; Sentinel also needs `redis-sentinel` (Debian's package). */
export const REDIS_BINARIES = {
  server: findOnPath('redis-server', process.env.PATH),
  cli: findOnPath('redis-cli', process.env.PATH),
  sentinel: findOnPath('redis-sentinel', process.env.PATH),
};

/** One Redis process of a topology. */
export interface RedisProcess {
  port: number;
  /** `127.0.0.1:<port>`. */
  address: string;
  pid: number | undefined;
  /** Whether it is still running. */
  running(): boolean;
  /** Its log so far (stdout). */
  output(): string;
  /** Sends `signal` (SIGTERM by default; SIGKILL to simulate a crash) and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawns `binary args` and waits for `ready` in its output. */
async function spawnRedis(
  binary: string,
  args: string[],
  port: number,
  ready: RegExp,
): Promise<RedisProcess> {
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    process.off('exit', killOnExit);
    if (!running() || child.pid === undefined) return;
    process.kill(child.pid, signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitFor(`${binary} on port ${port}`, () => {
      if (!running()) throw new Error(`${binary} on port ${port} exited: ${output.slice(-600)}`);
      return ready.test(output);
    });
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return { port, address: `127.0.0.1:${port}`, pid: child.pid, running, output: () => output, stop };
}

/** A port picked free can be taken by another process before Redis binds it (the slow lane runs in parallel). */
const PORT_RACE_ATTEMPTS = 5;

/** Runs `start` on a port picked free, again on a new port when it lost the race for the port. */
async function onFreePort(start: (port: number) => Promise<RedisProcess>): Promise<RedisProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start(await freePort());
    } catch (error) {
      const lostRace = error instanceof Error && /Address already in use/.test(error.message);
      if (!lostRace || attempt >= PORT_RACE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Starts `redis-server` on a free port with `extra` arguments, its files in `dir`. `withPorts` adds
 * arguments naming further ports (a cluster node's bus port).
 */
async function startServer(
  dir: string,
  extra: string[],
  withPorts: () => Promise<string[]> = async () => [],
): Promise<RedisProcess> {
  return onFreePort(async (port) => startServerOn(port, dir, [...extra, ...(await withPorts())]));
}

/** Starts `redis-server` on `port` (one it held before: a node started again) with `extra` arguments. */
async function startServerOn(port: number, dir: string, extra: string[]): Promise<RedisProcess> {
  const binary = REDIS_BINARIES.server;
  if (!binary) throw new Error('no redis-server on PATH');
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...extra];
  return spawnRedis(binary, args, port, /Ready to accept connections/);
}

/** Stops every process (SIGTERM, SIGKILL after 5 s) and removes the temp dir. */
async function stopAll(processes: readonly RedisProcess[], dir: string): Promise<void> {
  await Promise.all(processes.map((p) => p.stop().catch(() => undefined)));
  rmSync(dir, { recursive: true, force: true });
}

/** A private Redis Cluster. */
export interface PrivateCluster {
  masters: RedisProcess[];
  /** `host:port` of every node, as `redis.cluster.nodes` takes them. */
  nodes: string[];
  /** The keys on each master matching `pattern`, in `masters` order (SCAN sees one node only). */
  keysByNode(pattern?: string): Promise<string[][]>;
  stop(): Promise<void>;
}

/**
 * A cluster node's bus port, named rather than left to Redis's default of port + 10,000: that port may be
 * taken, or above 65,535 for a port picked from the ephemeral range.
 */
async function clusterBusPort(): Promise<string[]> {
  return ['--cluster-port', String(await freePort())];
}

/** Three masters (`--cluster-enabled yes`, no persistence), joined with `redis-cli --cluster create`. */
export async function startRedisCluster(count = 3): Promise<PrivateCluster> {
  const cli = REDIS_BINARIES.cli;
  if (!cli) throw new Error('no redis-cli on PATH');
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-cluster-'));
  const masters: RedisProcess[] = [];
  const stop = () => stopAll(masters, dir);
  try {
    for (let i = 0; i < count; i += 1) {
      const nodesFile = `nodes-${i}.conf`;
      masters.push(
        await startServer(
          dir,
          [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            nodesFile,
            '--appendonly',
            'no',
            '--maxmemory-policy',
            'noeviction',
          ],
          clusterBusPort,
        ),
      );
    }
    const nodes = masters.map((m) => m.address);
    await run(cli, ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    await waitFor('cluster_state:ok on every node', async () => {
      const states = await Promise.all(masters.map((m) => ask(m.port, ['CLUSTER', 'INFO'])));
      return states.every((info) => /cluster_state:ok/.test(info));
    });
    const keysByNode = (pattern = '*') => Promise.all(masters.map((m) => keysOf([m], pattern)));
    return { masters, nodes, keysByNode, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A private Sentinel setup. */
export interface PrivateSentinel {
  /** The master group name. */
  name: string;
  master: RedisProcess;
  replica: RedisProcess;
  sentinels: RedisProcess[];
  /** `host:port` of each sentinel, as `redis.sentinel.nodes` takes them. */
  sentinelNodes: string[];
  /** `host:port` of the master the sentinels name now. */
  currentMaster(): Promise<string | undefined>;
  /** Every key matching `pattern` on the current master. */
  keys(pattern?: string): Promise<string[]>;
  /**
   * Starts the first master again (after a test killed it) on its port with its AOF, and waits until the
   * sentinels made it the new master's replica and it is in sync: what an operator does after a failover.
   */
  restartMaster(): Promise<RedisProcess>;
  /**
   * A failover as a crash makes it: SIGKILLs whichever data node the sentinels name master now, waits until
   * they promote the other, then starts the killed node again on its port with its AOF as the new master's
   * replica and waits until it is in sync. Waits first, if need be, for the sentinels' own spacing of
   * failovers (twice the failover timeout). Resolves with when the kill and the promotion happened.
   */
  failover(): Promise<{ killedAt: number; promotedAt: number }>;
  /**
   * Readies the next {@link failover}: waits until the sentinels would start one, and notes the master they
   * name now, so that the failover kills it at once (no wait, no question asked of the sentinels first).
   */
  armFailover(): Promise<void>;
  stop(): Promise<void>;
}

/** Sentinel calls a failover down after this; failovers of one master group must be `2 × this` apart. */
const FAILOVER_TIMEOUT_MS = 10_000;

/**
 * One master (AOF on: a master should persist), one replica, three sentinels (quorum 2) that call the
 * master down after `downAfterMs` without an answer.
 */
export async function startRedisSentinel(downAfterMs = 1_000): Promise<PrivateSentinel> {
  const sentinelBinary = REDIS_BINARIES.sentinel;
  if (!sentinelBinary) throw new Error('no redis-sentinel on PATH');
  const name = 'shortwatch-ha';
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-sentinel-'));
  const all: RedisProcess[] = [];
  const stop = () => stopAll(all, dir);
  try {
    const masterArgs = ['--appendonly', 'yes', '--appendfilename', 'master.aof'];
    const replicaArgs = ['--appendonly', 'yes', '--appendfilename', 'replica.aof'];
    const master = await startServer(dir, masterArgs);
    all.push(master);
    const replica = await startServer(dir, [...replicaArgs, '--replicaof', '127.0.0.1', String(master.port)]);
    all.push(replica);
    // The data nodes as they run now (a failover restarts one), each with the arguments of its own AOF.
    const dataNodes = [
      { process: master, args: masterArgs },
      { process: replica, args: replicaArgs },
    ];
    await replicaInSync(replica.port, 'the replica in sync', 20_000);
    const sentinels: RedisProcess[] = [];
    for (let i = 0; i < 3; i += 1) {
      const file = join(dir, `sentinel-${i}.conf`);
      const sentinel = await onFreePort((port) => {
        // Sentinel rewrites its config file (it records the replicas and the other sentinels it finds).
        writeFileSync(
          file,
          [
            `port ${port}`,
            'bind 127.0.0.1',
            `dir ${dir}`,
            `sentinel monitor ${name} 127.0.0.1 ${master.port} 2`,
            `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
            `sentinel failover-timeout ${name} ${FAILOVER_TIMEOUT_MS}`,
            `sentinel parallel-syncs ${name} 1`,
            '',
          ].join('\n'),
        );
        return spawnRedis(sentinelBinary, [file], port, /\+monitor master/);
      });
      sentinels.push(sentinel);
      all.push(sentinel);
    }
    const currentMaster = async () => {
      for (const sentinel of sentinels.filter((s) => s.running())) {
        const reply = await ask(sentinel.port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name]).catch(() => '');
        const [host, port] = reply.split('\n');
        if (host && port) return `${host}:${port}`;
      }
      return undefined;
    };
    await waitFor('every sentinel to know the replica and the other sentinels', async () => {
      const views = await Promise.all(
        sentinels.map((s) => ask(s.port, ['SENTINEL', 'MASTER', name]).catch(() => '')),
      );
      return views.every((v) => /num-slaves\n1\b/.test(v) && /num-other-sentinels\n2\b/.test(v));
    });
    const keys = async (pattern = '*') => {
      const address = await currentMaster();
      const node = [master, replica].find((p) => p.address === address);
      return node ? keysOf([node], pattern) : [];
    };
    const restartMaster = async () => {
      if (master.running()) throw new Error('the first master is still running');
      const promoted = await currentMaster();
      if (promoted)
        await sentinelsAgree(
          sentinels.filter((s) => s.running()).map((s) => s.port),
          name,
          promoted,
        );
      const again = await startServerOn(master.port, dir, masterArgs);
      all.push(again);
      for (const node of dataNodes) if (node.process === master) node.process = again;
      // It starts as a master of its own AOF; the sentinels turn it into the new master's replica.
      await replicaInSync(again.port, 'the old master back as a replica in sync');
      return again;
    };
    const spacing = new FailoverSpacing(FAILOVER_TIMEOUT_MS);
    let armed: string | undefined;
    const armFailover = async () => {
      await spacing.wait();
      armed = await currentMaster();
    };
    const failover = async () => {
      if (armed === undefined) await armFailover();
      const address = armed;
      armed = undefined;
      const killed = dataNodes.find((n) => n.process.address === address);
      const promoted = dataNodes.find((n) => n.process.address !== address);
      if (!killed || !promoted) throw new Error(`no data node is the master the sentinels name (${address})`);
      const killedAt = Date.now();
      await killed.process.stop('SIGKILL');
      const running = sentinels.filter((s) => s.running()).map((s) => s.port);
      const promotedAt = await awaitPromotion(
        { name, ports: running, currentMaster },
        promoted.process.address,
        downAfterMs + 60_000,
      );
      spacing.promoted(promotedAt);
      // Started as the new master's replica at once: started as a master of its own AOF, it would be one
      // until the sentinels turned it, with writes nobody should see.
      const again = await startServerOn(killed.process.port, dir, [
        ...killed.args,
        '--replicaof',
        '127.0.0.1',
        String(promoted.process.port),
      ]);
      all.push(again);
      killed.process = again;
      await replicaInSync(again.port, 'the killed node back as a replica in sync');
      return { killedAt, promotedAt };
    };
    return {
      name,
      master,
      replica,
      sentinels,
      sentinelNodes: sentinels.map((s) => s.address),
      currentMaster,
      keys,
      restartMaster,
      failover,
      armFailover,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The sentinels start no second failover of one master group within twice its failover timeout. */
class FailoverSpacing {
  readonly #failoverTimeoutMs: number;
  #lastPromotedAt = 0;

  constructor(failoverTimeoutMs: number) {
    this.#failoverTimeoutMs = failoverTimeoutMs;
  }

  /** Resolves once the sentinels would start another failover. */
  async wait(): Promise<void> {
    const gap = this.#lastPromotedAt + 2 * this.#failoverTimeoutMs + 1_000 - Date.now();
    if (gap > 0) await sleep(gap);
  }

  promoted(at: number): void {
    this.#lastPromotedAt = at;
  }
}

/**
 * Waits until the sentinels name `address` master, then until every one of `ports` agrees with no
 * failover in progress; resolves with when it was first named.
 */
async function awaitPromotion(
  group: { name: string; ports: readonly number[]; currentMaster: () => Promise<string | undefined> },
  address: string,
  timeoutMs: number,
): Promise<number> {
  await waitFor(
    'the sentinels to promote the replica',
    async () => (await group.currentMaster()) === address,
    timeoutMs,
    50,
  );
  const promotedAt = Date.now();
  await sentinelsAgree(group.ports, group.name, address);
  return promotedAt;
}

/**
 * Waits until the node on `port` replicates with its link up. A node turned into a replica closes its
 * clients' connections, so a failed question is asked again.
 */
async function replicaInSync(port: number, what: string, timeoutMs = 45_000): Promise<void> {
  await waitFor(
    what,
    async () => /master_link_status:up/.test(await ask(port, ['INFO', 'replication']).catch(() => '')),
    timeoutMs,
  );
}

/**
 * Waits until every sentinel names `address` as the master and none is failing over. A node restarted
 * before that (the old master) may be promoted mid-sync by a sentinel still at odds (one that saw the new
 * master miss its pings on a loaded machine), in a second failover of its own.
 */
async function sentinelsAgree(ports: readonly number[], name: string, address: string): Promise<void> {
  await waitFor(
    'every sentinel to name the promoted replica, with no failover in progress',
    async () => {
      const views = await Promise.all(
        ports.map(async (port) => ({
          address: await ask(port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name]).catch(() => ''),
          master: await ask(port, ['SENTINEL', 'MASTER', name]).catch(() => ''),
        })),
      );
      return views.every(
        (v) =>
          v.address.split('\n').join(':') === address && !/failover_in_progress|o_down|s_down/.test(v.master),
      );
    },
    30_000,
    50,
  );
}

/** One command on a fresh connection to 127.0.0.1:port; the reply flattened to lines. */
async function ask(port: number, command: [string, ...string[]]): Promise<string> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const [name, ...args] = command;
    const reply: unknown = await redis.call(name, ...args);
    return flatten(reply).join('\n');
  } finally {
    redis.disconnect();
  }
}

function flatten(reply: unknown): string[] {
  if (Array.isArray(reply)) return reply.flatMap(flatten);
  return [String(reply)];
}

async function keysOf(nodes: readonly RedisProcess[], pattern: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of nodes.filter((n) => n.running())) {
    const redis = new Redis({ port: node.port, host: '127.0.0.1', lazyConnect: true });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
        cursor = next;
        found.push(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
  return found;
}

/** A data node of a {@link ProxiedSentinel}: known to everyone by its proxy's address only. */
export interface ProxiedNode {
  /** `127.0.0.1:<proxy port>`: what the sentinels, the replica and shortwatch reach. */
  address: string;
  proxy: FreezingProxy;
  /** The redis-server behind the proxy (replaced when the node is started again). */
  server: RedisProcess;
}

/** A Sentinel whose two data nodes each sit behind a proxy that can freeze a replication link. */
export interface ProxiedSentinel {
  name: string;
  sentinelNodes: string[];
  /** `host:port` (a proxy's) of the master the sentinels name now. */
  currentMaster(): Promise<string | undefined>;
  /** The node the sentinels name master, and the other. */
  roles(): Promise<{ master: ProxiedNode; replica: ProxiedNode }>;
  /**
   * SIGKILLs the master and waits until the sentinels promote the replica; then starts the killed node
   * again, empty, as the new master's replica, and waits until it is in sync. Resolves with the
   * promotion's time.
   */
  failover(): Promise<number>;
  stop(): Promise<void>;
}

/** Sentinel calls a failover down after this; failovers of one master group must be `2 × this` apart. */
const PROXIED_FAILOVER_TIMEOUT_MS = 4_000;

/**
 * One master and one replica, each behind a freezing proxy (the replica announces its proxy's port, and
 * replicates through the master's), and three sentinels that monitor the master's proxy. Freezing the
 * replication link at the master's proxy leaves a replica that answers the sentinels, looks linked, and
 * lacks every write since: the stale replica a failover promotes.
 */
export async function startProxiedSentinel(downAfterMs = 1_000): Promise<ProxiedSentinel> {
  const serverBinary = REDIS_BINARIES.server;
  const sentinelBinary = REDIS_BINARIES.sentinel;
  if (!serverBinary || !sentinelBinary) throw new Error('no redis-server or redis-sentinel on PATH');
  const name = 'shortwatch-stale';
  const dir = mkdtempSync(join(tmpdir(), 'shortwatch-stale-'));
  const nodes: ProxiedNode[] = [];
  const sentinels: RedisProcess[] = [];
  const stop = async () => {
    await stopAll([...nodes.map((n) => n.server), ...sentinels], dir);
    await Promise.all(nodes.map((n) => n.proxy.close()));
  };
  const startNode = async (port: number, proxyPort: number, masterAddress?: string) => {
    const replicaOf = masterAddress
      ? ['--replicaof', '127.0.0.1', masterAddress.split(':')[1] ?? '', '--replica-announce-ip', '127.0.0.1']
      : [];
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    const extra = ['--dbfilename', `node-${port}.rdb`, '--replica-announce-port', String(proxyPort)];
    return spawnRedis(serverBinary, [...args, ...extra, ...replicaOf], port, /Ready to accept connections/);
  };
  // A restarted node loads, connects and takes a full sync (a fork and an RDB): seconds on a busy
  // machine, so the wait is generous and its timeout says where the link stood.
  const inSync = async (node: ProxiedNode) => {
    let info = '';
    try {
      await waitFor(
        'the replica in sync',
        async () => {
          info = await ask(node.server.port, ['INFO', 'replication']).catch((error) => String(error));
          return /master_link_status:up/.test(info);
        },
        45_000,
      );
    } catch (error) {
      const link = info
        .split('\n')
        .filter((line) => /^(role|master_link|master_sync|master_host|master_port)/.test(line));
      // What the sentinels did meanwhile (their +/- events) says who told the node to be what.
      const events = sentinels.map((sentinel, i) =>
        sentinel
          .output()
          .split('\n')
          .filter((line) => / [+-][a-z-]+ /.test(line))
          .slice(-15)
          .map((line) => `  sentinel ${i}: ${line}`)
          .join('\n'),
      );
      throw new Error(
        `${error instanceof Error ? error.message : String(error)} (${link.join(', ').trim()}); nodes ${nodes.map((n) => `${n.address} -> :${n.server.port}`).join(', ')}\n${events.join('\n')}`,
      );
    }
  };
  try {
    for (const replicaOf of [undefined, 0]) {
      // A port picked free and proxied first: the node announces its proxy's port, known only then.
      const port = await freePort();
      const proxy = await startFreezingProxy(port);
      const master = replicaOf === undefined ? undefined : nodes[replicaOf]?.address;
      const node = {
        address: `127.0.0.1:${proxy.port}`,
        proxy,
        server: await startNode(port, proxy.port, master),
      };
      nodes.push(node);
    }
    const [first, second] = nodes;
    if (!first || !second) throw new Error('two nodes');
    await inSync(second);
    for (let i = 0; i < 3; i += 1) {
      const file = join(dir, `sentinel-${i}.conf`);
      sentinels.push(
        await onFreePort((port) => {
          writeFileSync(
            file,
            [
              `port ${port}`,
              'bind 127.0.0.1',
              `dir ${dir}`,
              `sentinel monitor ${name} 127.0.0.1 ${first.proxy.port} 2`,
              `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
              `sentinel failover-timeout ${name} ${PROXIED_FAILOVER_TIMEOUT_MS}`,
              `sentinel parallel-syncs ${name} 1`,
              '',
            ].join('\n'),
          );
          return spawnRedis(sentinelBinary, [file], port, /\+monitor master/);
        }),
      );
    }
    const currentMaster = async () => {
      for (const sentinel of sentinels.filter((s) => s.running())) {
        const reply = await ask(sentinel.port, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name]).catch(() => '');
        const [host, port] = reply.split('\n');
        if (host && port) return `${host}:${port}`;
      }
      return undefined;
    };
    await waitFor('every sentinel to know the replica and the other sentinels', async () => {
      const views = await Promise.all(
        sentinels.map((s) => ask(s.port, ['SENTINEL', 'MASTER', name]).catch(() => '')),
      );
      return views.every((v) => /num-slaves\n1\b/.test(v) && /num-other-sentinels\n2\b/.test(v));
    });
    const roles = async () => {
      const address = await currentMaster();
      const master = nodes.find((n) => n.address === address);
      const replica = nodes.find((n) => n.address !== address);
      if (!master || !replica) throw new Error(`no node is the master the sentinels name (${address})`);
      return { master, replica };
    };
    const spacing = new FailoverSpacing(PROXIED_FAILOVER_TIMEOUT_MS);
    const failover = async () => {
      const { master, replica } = await roles();
      await spacing.wait();
      await master.server.stop('SIGKILL');
      const ports = sentinels.map((sentinel) => sentinel.port);
      const promotedAt = await awaitPromotion({ name, ports, currentMaster }, replica.address, 30_000);
      spacing.promoted(promotedAt);
      master.proxy.forgetFreezes();
      master.server = await startNode(master.server.port, master.proxy.port, replica.address);
      await inSync(master);
      return promotedAt;
    };
    return { name, sentinelNodes: sentinels.map((s) => s.address), currentMaster, roles, failover, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
