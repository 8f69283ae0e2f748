import { Cluster, type Redis } from 'ioredis';
import { z } from 'zod';
import type { Message } from '../channels/types.js';
import type { Logger } from '../telemetry/logger.js';
import { stateKeys } from './keys.js';
import type { Notices } from './notices.js';
import type { RedisClient } from './redis-connection.js';
import type { Rollback, StateMark } from './state-mark.js';

/**
 * Tell only what a replica holds (issue 30). Before a message that depends on the state is sent, the
 * deliverer raises the deployment's high-water mark on its own connection and sends `WAIT replicas
 * timeout` on the same one. Replication is one ordered stream, so a replica that acknowledged the raise
 * holds everything the master wrote before it: the commit of the message's events (whichever process
 * made it), its claim, and the previous message's "sent" record. One `WAIT` per send covers them all.
 * Not acknowledged in time means not yet durable: the message waits and is asked about again, with a
 * notice when that lasts. The raise is a write of this connection's own, so `WAIT` counts from it even
 * after a reconnect (`WAIT` on a connection that wrote nothing returns at once).
 */

/** The settings in force: replicas to wait for (0: no `WAIT`), one `WAIT`'s timeout, when to tell. */
export interface DurabilitySettings {
  replicas: number;
  /**
   * At most the replicas the topology names for the master, connected or not (`auto`): a master that has
   * none (a Cluster shard or Sentinel group run without one) sends without waiting; one whose replica is
   * down or not yet linked waits for it.
   */
  atMostKnown?: boolean;
  timeoutMs: number;
  noticeAfterMs: number;
}

/** What Durability uses besides the connection it is handed. */
export interface DurabilityDeps {
  mark: Pick<StateMark, 'raise'>;
  root: string;
  settings: () => DurabilitySettings;
  notices: Pick<Notices, 'raise' | 'clear'>;
  /** The replicas the sentinels name for the master group, down ones too (Sentinel only; 0 elsewhere). */
  sentinelReplicas?: () => Promise<number>;
  /** A rollback the raise found (writes lost): told by the caller's one report. */
  onRollback: (rollback: Rollback) => Promise<void>;
  now: () => number;
  logger: Logger;
}

/** The notice raised while messages wait for their replicas longer than `noticeAfter`. */
export const NOT_DURABLE_NOTICE = 'deliveries-not-durable';
/** How soon a message that was not durable is asked about again (the `WAIT` itself took its timeout). */
const ASK_AGAIN_MS = 50;

const waitReply = z.number().int().nonnegative();

const roleReply = z.tuple([z.string(), z.unknown(), z.array(z.unknown())]).rest(z.unknown());

/** How many replicas the master on `node` has connected (`ROLE`); 0 for a node that is no master. */
async function connectedReplicas(node: Redis): Promise<number> {
  const role = roleReply.safeParse(await node.call('ROLE'));
  return role.success && role.data[0] === 'master' ? role.data[2].length : 0;
}

/** Whether a message must wait for its replicas: one that tells events. Notices and tests go at once. */
export function dependsOnState(message: Message): boolean {
  return message.type === 'events' || message.type === 'batch' || message.type === 'digest';
}

/** One process's gate before its deliverers send (one instance shared by every channel). */
export class Durability {
  readonly #deps: DurabilityDeps;
  /** Since when (ms) each channel's next message waits for its replicas. */
  readonly #waiting = new Map<string, number>();
  /** Whether a notice of this process (or one left by another) may be active: cleared at the next durable send. */
  #told = true;
  #slot: Promise<number> | undefined;

  constructor(deps: DurabilityDeps) {
    this.#deps = deps;
  }

  /**
   * Before `channel` sends `message` on `client` (the connection its claim was written on): null to send
   * now, or how long to wait before looking at the outbox again (not durable yet, or the state went back
   * and the claim may be gone with it).
   */
  async beforeSend(client: RedisClient, channel: string, message: Message): Promise<number | null> {
    const rollback = await this.#deps.mark.raise(client);
    if (rollback) {
      await this.#deps.onRollback(rollback);
      return 0;
    }
    const { timeoutMs, noticeAfterMs, ...wanted } = this.#deps.settings();
    if (!dependsOnState(message)) return null;
    const cluster = client instanceof Cluster ? client : undefined;
    const node =
      wanted.replicas === 0 ? undefined : client instanceof Cluster ? await this.#slotNode(client) : client;
    const replicas =
      node && wanted.atMostKnown
        ? await this.#knownReplicas(node, cluster, wanted.replicas)
        : wanted.replicas;
    if (!node || replicas === 0) {
      // Nothing to wait for: sent. A wait this channel had is over; the next one is timed from its own start.
      await this.#durable(channel);
      return null;
    }
    const acked = waitReply.parse(await node.wait(replicas, timeoutMs));
    if (acked >= replicas) {
      await this.#durable(channel);
      return null;
    }
    await this.#notDurable(channel, { acked, replicas, noticeAfterMs });
    return ASK_AGAIN_MS;
  }

  async #durable(channel: string): Promise<void> {
    this.#waiting.delete(channel);
    if (!this.#told || this.#waiting.size > 0) return;
    // Sent is sent: a Redis error here is for the next durable send to clear it.
    const cleared = await this.#deps.notices
      .clear(NOT_DURABLE_NOTICE, 'Replicas acknowledge the writes again; messages are sent.')
      .then(() => true)
      .catch(() => false);
    if (cleared) this.#told = false;
  }

  async #notDurable(
    channel: string,
    seen: { acked: number; replicas: number; noticeAfterMs: number },
  ): Promise<void> {
    const now = this.#deps.now();
    const since = this.#waiting.get(channel) ?? now;
    if (!this.#waiting.has(channel)) {
      this.#waiting.set(channel, since);
      this.#deps.logger.warn(
        { channel, acked: seen.acked, replicas: seen.replicas },
        'message not yet durable: waiting for Redis replicas to acknowledge before sending it',
      );
    }
    if (now - since < seen.noticeAfterMs) return;
    this.#told = true;
    await this.#deps.notices.raise(
      NOT_DURABLE_NOTICE,
      'critical',
      'Messages wait for Redis replicas',
      `${channel}'s next message has waited ${Math.round((now - since) / 1_000)} s for ${seen.replicas} replica${seen.replicas === 1 ? '' : 's'} to acknowledge the writes it depends on (${seen.acked} did). A replica is down or its link to the master is stuck: check \`INFO replication\` on the master. Sending it now could tell a change a failover then forgets and tells again; set redis.durability.replicas lower to send without them (or, for a replica lost for good under Sentinel, SENTINEL RESET on each sentinel so that it is no longer named).`,
    );
  }

  /**
   * `auto`: `wanted`, or fewer when the topology names fewer replicas for the master. Those connected
   * (`ROLE`) are enough to know in the usual case; only when fewer are connected than wanted does it ask
   * who should be there: the slot's replicas in the cluster's map, or the sentinels' list (which names a
   * replica that is down, and the old master after a failover, until an operator resets it).
   */
  async #knownReplicas(node: Redis, cluster: Cluster | undefined, wanted: number): Promise<number> {
    const connected = await connectedReplicas(node);
    if (connected >= wanted) return wanted;
    const named = cluster
      ? Math.max(0, (cluster.slots[await this.#slotOf(cluster)]?.length ?? 1) - 1)
      : await (this.#deps.sentinelReplicas?.() ?? Promise.resolve(0));
    return Math.min(wanted, Math.max(connected, named));
  }

  async #slotOf(cluster: Cluster): Promise<number> {
    this.#slot ??= cluster
      .call('CLUSTER', 'KEYSLOT', stateKeys(this.#deps.root).stateMark)
      .then((slot) => z.number().int().parse(slot));
    return this.#slot;
  }

  /** The master connection of the deployment's slot: the one a routed raise went through. */
  async #slotNode(cluster: Cluster): Promise<Redis> {
    const slot = await this.#slotOf(cluster);
    const address = cluster.slots[slot]?.[0];
    const node = cluster.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === address);
    if (!node) throw new Error(`no connection to the master of slot ${slot} (${address ?? 'unknown'})`);
    return node;
  }
}
