import { Cluster } from "ioredis";
import { z } from "zod";
import { stateKeys } from "./keys.js";
const NOT_DURABLE_NOTICE = "deliveries-not-durable";
const ASK_AGAIN_MS = 50;
const waitReply = z.number().int().nonnegative();
const roleReply = z.tuple([z.string(), z.unknown(), z.array(z.unknown())]).rest(z.unknown());
async function connectedReplicas(node) {
  const role = roleReply.safeParse(await node.call("ROLE"));
  return role.success && role.data[0] === "master" ? role.data[2].length : 0;
}
function dependsOnState(message) {
  return message.type === "events" || message.type === "batch" || message.type === "digest";
}
class Durability {
  #deps;
  /** Since when (ms) each channel's next message waits for its replicas. */
  #waiting = /* @__PURE__ */ new Map();
  /** Whether a notice of this process (or one left by another) may be active: cleared at the next durable send. */
  #told = true;
  #slot;
  constructor(deps) {
    this.#deps = deps;
  }
  /**
   * Before `channel` sends `message` on `client` (the connection its claim was written on): null to send
   * now, or how long to wait before looking at the outbox again (not durable yet, or the state went back
   * and the claim may be gone with it).
   */
  async beforeSend(client, channel, message) {
    const rollback = await this.#deps.mark.raise(client);
    if (rollback) {
      await this.#deps.onRollback(rollback);
      return 0;
    }
    const { timeoutMs, noticeAfterMs, ...wanted } = this.#deps.settings();
    if (wanted.replicas === 0 || !dependsOnState(message)) return null;
    const node = client instanceof Cluster ? await this.#slotNode(client) : client;
    const replicas = wanted.atMostConnected ? Math.min(wanted.replicas, await connectedReplicas(node)) : wanted.replicas;
    if (replicas === 0) return null;
    const acked = waitReply.parse(await node.wait(replicas, timeoutMs));
    if (acked >= replicas) {
      await this.#durable(channel);
      return null;
    }
    await this.#notDurable(channel, { acked, replicas, noticeAfterMs });
    return ASK_AGAIN_MS;
  }
  async #durable(channel) {
    this.#waiting.delete(channel);
    if (!this.#told || this.#waiting.size > 0) return;
    const cleared = await this.#deps.notices.clear(NOT_DURABLE_NOTICE, "Replicas acknowledge the writes again; messages are sent.").then(() => true).catch(() => false);
    if (cleared) this.#told = false;
  }
  async #notDurable(channel, seen) {
    const now = this.#deps.now();
    const since = this.#waiting.get(channel) ?? now;
    if (!this.#waiting.has(channel)) {
      this.#waiting.set(channel, since);
      this.#deps.logger.warn(
        { channel, acked: seen.acked, replicas: seen.replicas },
        "message not yet durable: waiting for Redis replicas to acknowledge before sending it"
      );
    }
    if (now - since < seen.noticeAfterMs) return;
    this.#told = true;
    await this.#deps.notices.raise(
      NOT_DURABLE_NOTICE,
      "critical",
      "Messages wait for Redis replicas",
      `${channel}'s next message has waited ${Math.round((now - since) / 1e3)} s for ${seen.replicas} replica${seen.replicas === 1 ? "" : "s"} to acknowledge the writes it depends on (${seen.acked} did). A replica is down or its link to the master is stuck: check \`INFO replication\` on the master. Sending it now could tell a change a failover then forgets and tells again; set redis.durability.replicas lower to send without them.`
    );
  }
  /** The master connection of the deployment's slot: the one a routed raise went through. */
  async #slotNode(cluster) {
    this.#slot ??= cluster.call("CLUSTER", "KEYSLOT", stateKeys(this.#deps.root).stateMark).then((slot2) => z.number().int().parse(slot2));
    const slot = await this.#slot;
    const address = cluster.slots[slot]?.[0];
    const node = cluster.nodes("master").find((n) => `${n.options.host}:${n.options.port}` === address);
    if (!node) throw new Error(`no connection to the master of slot ${slot} (${address ?? "unknown"})`);
    return node;
  }
}
export {
  Durability,
  NOT_DURABLE_NOTICE,
  dependsOnState
};
