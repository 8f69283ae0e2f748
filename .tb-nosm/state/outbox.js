import { positionEventSchema } from "../positions/schemas.js";
import { stateKeys } from "./keys.js";
import {
  CLAIM_SCRIPT,
  ENQUEUE_SCRIPT,
  FINISH_SCRIPT,
  FORGET_IDLE_SCRIPT,
  REQUEUE_SCRIPT,
  RESTORE_SCRIPT,
  SEAL_DIGEST_SCRIPT,
  SEND_STATE_SCRIPT,
  SET_ASIDE_INFLIGHT_SCRIPT,
  SET_ASIDE_ITEMS_SCRIPT,
  TAKE_OVER_SCRIPT,
  UPDATE_INFLIGHT_SCRIPT
} from "./outbox-lua.js";
import {
  inflightSchema,
  outboxItemSchema,
  parkedSchema,
  readRecord,
  recordJson
} from "./outbox-records.js";
import { DEDUPE_MEMORY_MS } from "./retention.js";
import { parseStored } from "./stored-json.js";
import { inflightSchema as inflightSchema2, outboxItemSchema as outboxItemSchema2, parkedSchema as parkedSchema2 } from "./outbox-records.js";
class Outbox {
  #redis;
  #root;
  constructor(redis, root) {
    this.#redis = redis;
    this.#root = root;
  }
  /** The pub/sub channel on which channel names are published when their outbox has new work. */
  get wakeChannel() {
    return stateKeys(this.#root).outboxWake;
  }
  /** Adds a ready-made message once per id (the dedupe memory); true when it was new. */
  async enqueue(channel, deliveryId, message, readyAt) {
    const box = this.#box(channel);
    const item = recordJson(outboxItemSchema, { kind: "message", deliveryId, message });
    const reply = await this.#redis.eval(
      ENQUEUE_SCRIPT,
      4,
      box.pending,
      box.items,
      box.seen,
      this.#withWork,
      deliveryId,
      item,
      readyAt ?? "",
      DEDUPE_MEMORY_MS,
      this.wakeChannel,
      channel
    );
    return reply === 1;
  }
  /**
   * Items ready at `nowMs`, oldest first (at most `limit`), when the next later one becomes ready, and the
   * ready ids whose record cannot be read (for {@link Outbox.setAsideItems}).
   */
  async ready(channel, nowMs, limit) {
    const box = this.#box(channel);
    const ids = await this.#redis.zrangebyscore(box.pending, "-inf", nowMs, "LIMIT", 0, limit);
    const next = await this.#redis.zrangebyscore(
      box.pending,
      `(${nowMs}`,
      "+inf",
      "WITHSCORES",
      "LIMIT",
      0,
      1
    );
    const nextReadyAt = next[1] === void 0 ? null : Number(next[1]);
    if (ids.length === 0) return { items: [], nextReadyAt, unreadable: [] };
    const raws = await this.#redis.hmgetBuffer(box.items, ...ids);
    const items = [];
    const unreadable = [];
    ids.forEach((id, index) => {
      const raw = raws[index] ?? null;
      const read = raw === null ? null : readRecord(outboxItemSchema, raw.toString("utf8"));
      if (read?.ok) items.push({ ...read.value, id });
      else unreadable.push({ id, raw, reason: read?.reason ?? "item missing" });
    });
    return { items, nextReadyAt, unreadable };
  }
  /**
   * Moves unreadable waiting items, each only if still as it was read, out of the queue into the
   * channel's unreadable records (their exact bytes kept); returns how many moved.
   */
  async setAsideItems(channel, records) {
    const args = records.flatMap(
      (r) => r.id === null ? [] : [r.id, r.raw === null ? "missing" : "raw", r.raw ?? ""]
    );
    if (args.length === 0) return 0;
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      SET_ASIDE_ITEMS_SCRIPT,
      3,
      box.pending,
      box.items,
      box.unreadable,
      ...args
    );
    return Number(reply);
  }
  /** Moves an unreadable in-flight record, if unchanged and `owner` holds the lease, to the unreadable records. */
  async setAsideInflight(channel, owner, raw) {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      SET_ASIDE_INFLIGHT_SCRIPT,
      3,
      box.lease,
      box.inflight,
      box.unreadable,
      owner,
      raw
    );
    return reply === 1;
  }
  /** The records set aside as unreadable: field (`item:<id>:<ms>` or `inflight:<ms>`) → exact bytes. */
  async unreadable(channel) {
    return this.#redis.hgetallBuffer(this.#box(channel).unreadable);
  }
  /** The events of a sealed digest period. */
  async digestEvents(channel, batchId) {
    const raws = await this.#redis.hvals(this.#box(channel).digestBatch(batchId));
    return raws.flatMap((raw) => {
      const parsed = parseStored(raw, positionEventSchema);
      return parsed.success ? [parsed.data] : [];
    });
  }
  /** The message in flight, if any (an unreadable record reads as none). */
  async inflight(channel) {
    const read = await this.inflightRecord(channel);
    return read.state === "ok" ? read.inflight : null;
  }
  /** The in-flight record: none, a message, or bytes this code cannot read. */
  async inflightRecord(channel) {
    const raw = await this.#redis.getBuffer(this.#box(channel).inflight);
    if (raw === null) return { state: "none" };
    const read = readRecord(inflightSchema, raw.toString("utf8"));
    if (read.ok) return { state: "ok", inflight: read.value, raw };
    return { state: "unreadable", record: { id: null, raw, reason: read.reason } };
  }
  /** Moves `itemIds` out of the queue into the in-flight record, if `owner` still holds the lease. */
  async claim(channel, owner, inflight, itemIds) {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      CLAIM_SCRIPT,
      4,
      box.lease,
      box.inflight,
      box.pending,
      box.items,
      owner,
      recordJson(inflightSchema, inflight),
      ...itemIds
    );
    return reply === 1 ? "claimed" : reply === 0 ? "lease-lost" : "busy";
  }
  /**
   * Rewrites the in-flight record (attempts, parts sent, backoff), as the lease holder `owner` or as the
   * incarnation `claimant` that claimed it; false when neither holds.
   */
  async update(channel, owner, inflight, claimant = "") {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      UPDATE_INFLIGHT_SCRIPT,
      2,
      box.lease,
      box.inflight,
      owner,
      marker(inflight.deliveryId),
      recordJson(inflightSchema, inflight),
      claimant === "" ? "" : claimantMarker(claimant)
    );
    return reply === 1;
  }
  /**
   * Takes the in-flight record read as `raw` over for the lease holder `owner` as `next`, once its
   * claimant's delivery path has been silent for `graceMs` by Redis' clock (see TAKE_OVER_SCRIPT).
   */
  async takeOver(channel, owner, read, graceMs, next) {
    const box = this.#box(channel);
    const reply = Number(
      await this.#redis.eval(
        TAKE_OVER_SCRIPT,
        3,
        box.lease,
        box.inflight,
        stateKeys(this.#root).senders,
        owner,
        read.raw,
        read.inflight.claimedBy ?? "",
        graceMs,
        read.inflight.touchedAt ?? "",
        recordJson(inflightSchema, next)
      )
    );
    return reply === 1 ? "taken" : reply === 0 ? "lost" : -reply;
  }
  /**
   * Ends the in-flight message as sent or parked (dead letter), as the lease holder `owner` or as the
   * incarnation `claimant` that claimed it; false when neither holds or the record is gone.
   */
  async finish(channel, owner, inflight, outcome, nowMs, claimant = owner) {
    const box = this.#box(channel);
    const parked = outcome === "parked" ? recordJson(parkedSchema, { ...inflight, channel, parkedAt: nowMs }) : "";
    const reply = await this.#redis.eval(
      FINISH_SCRIPT,
      5,
      box.lease,
      box.inflight,
      box.parked,
      inflight.digestBatch ? box.digestBatch(inflight.digestBatch) : box.state,
      box.parkedOrder,
      owner,
      marker(inflight.deliveryId),
      outcome,
      inflight.deliveryId,
      parked,
      inflight.digestBatch ? "1" : "",
      claimantMarker(claimant)
    );
    return reply === 1;
  }
  /**
   * Puts the records set aside as unreadable that this version reads back at the front of the queue
   * (an older process sets aside what a newer one wrote, in a rolling upgrade); returns how many.
   */
  async restoreReadable(channel) {
    const box = this.#box(channel);
    const args = Object.entries(await this.unreadable(channel)).flatMap(([field, raw]) => {
      const item = restorableItem(field, raw.toString("utf8"));
      return item ? [field, raw, item.id, item.json] : [];
    });
    if (args.length === 0) return 0;
    const reply = await this.#redis.eval(
      RESTORE_SCRIPT,
      4,
      box.unreadable,
      box.pending,
      box.items,
      this.#withWork,
      this.wakeChannel,
      channel,
      ...args
    );
    return Number(reply);
  }
  /** The channel's parked messages. */
  async parked(channel) {
    const all = await this.#redis.hvals(this.#box(channel).parked);
    return all.flatMap((raw) => {
      const read = readRecord(parkedSchema, raw);
      return read.ok ? [read.value] : [];
    }).sort((a, b) => a.parkedAt - b.parkedAt);
  }
  /** Puts parked messages (all, or those with the given delivery ids) back at the front; returns how many. */
  async requeue(channel, deliveryIds) {
    const parked = await this.parked(channel);
    const chosen = parked.filter((p) => deliveryIds === void 0 || deliveryIds.includes(p.deliveryId));
    if (chosen.length === 0) return 0;
    const box = this.#box(channel);
    const args = chosen.flatMap((p) => [
      p.deliveryId,
      recordJson(outboxItemSchema, {
        kind: "message",
        deliveryId: p.deliveryId,
        message: p.message,
        ...p.digestBatch ? { digestBatch: p.digestBatch } : {}
      })
    ]);
    const reply = await this.#redis.eval(
      REQUEUE_SCRIPT,
      5,
      box.parked,
      box.pending,
      box.items,
      box.parkedOrder,
      this.#withWork,
      this.wakeChannel,
      channel,
      ...args
    );
    return Number(reply);
  }
  /**
   * The channel's shared send state: paused by a 429 until, and when the last message started (the next
   * may start one rate interval later, computed with the rate configured now), with Redis' time `now`:
   * every host compares them on that one clock.
   */
  async sendState(channel) {
    const reply = await this.#redis.eval(SEND_STATE_SCRIPT, 1, this.#box(channel).state);
    const [pausedUntil, lastSentAt, now] = Array.isArray(reply) ? reply.map(Number) : [];
    if (now === void 0 || !Number.isFinite(now)) throw new Error("send state: Redis gave no time");
    return { pausedUntil: pausedUntil || 0, lastSentAt: lastSentAt || 0, now };
  }
  /** Records the shared send state. */
  async setSendState(channel, state) {
    const fields = Object.entries(state).flatMap(([k, v]) => v === void 0 ? [] : [k, String(v)]);
    if (fields.length > 0) await this.#redis.hset(this.#box(channel).state, ...fields);
  }
  /** Counts for `status`, `/metrics` and tests. */
  async depth(channel, nowMs) {
    const box = this.#box(channel);
    const reply = await this.#redis.multi().zcard(box.pending).zcount(box.pending, "-inf", nowMs).exists(box.inflight).hlen(box.parked).exec();
    const n = (i) => Number(reply?.[i]?.[1] ?? 0);
    return { waiting: n(0), ready: n(1), inflight: n(2), parked: n(3) };
  }
  /**
   * Since when (epoch ms) the channel's oldest undelivered message waits: the in-flight message since it
   * was claimed, or the oldest item ready at `nowMs` since it became ready; null when neither. Items put
   * back by `deliveries retry` (score 0, the front) count from their claim, not from their first try.
   */
  async oldestUndelivered(channel, nowMs) {
    const box = this.#box(channel);
    const [oldest, raw] = await Promise.all([
      this.#redis.zrangebyscore(box.pending, "(0", nowMs, "WITHSCORES", "LIMIT", 0, 1),
      this.#redis.getBuffer(box.inflight)
    ]);
    const read = raw === null ? null : readRecord(inflightSchema, raw.toString("utf8"));
    const candidates = [
      oldest[1] === void 0 ? null : Number(oldest[1]),
      read?.ok ? read.value.claimedAt : null
    ].filter((at) => at !== null && Number.isFinite(at));
    return candidates.length === 0 ? null : Math.min(...candidates);
  }
  /** Events waiting in a digest channel's current period. */
  async stagedCount(channel) {
    return this.#redis.hlen(this.#box(channel).digestStaged);
  }
  /**
   * Closes a digest period in one step: the staged events become one sealed batch in the outbox. Sealing
   * is idempotent per period (`scheduledAt`, the time its job was planned for): a period at or before the
   * last one sealed is left alone. Returns the events sealed, -1 when nothing was queued (empty and
   * `sendEmpty` off), -2 when the period was sealed before.
   */
  async sealDigest(channel, batch) {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      SEAL_DIGEST_SCRIPT,
      6,
      box.digestStaged,
      box.digestMeta,
      box.digestBatch(batch.batchId),
      box.pending,
      box.items,
      this.#withWork,
      batch.batchId,
      batch.to,
      batch.timezone,
      batch.sendEmpty ? 1 : 0,
      this.wakeChannel,
      channel,
      batch.firstFrom,
      batch.scheduledAt
    );
    return Number(reply);
  }
  /**
   * Subscribers' channels whose outbox may hold work: every script that queues work for one adds it. A
   * drained one stays listed until {@link Outbox.forgetIfIdle} finds it empty.
   */
  async subscriberChannelsWithWork() {
    return this.#redis.smembers(this.#withWork);
  }
  /** Unlists a subscriber's channel whose outbox holds nothing (none waiting, none in flight); true when unlisted. */
  async forgetIfIdle(channel) {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      FORGET_IDLE_SCRIPT,
      3,
      this.#withWork,
      box.pending,
      box.inflight,
      channel
    );
    return reply === 1;
  }
  /** Parked messages and staged digest events summed over many channels, in one pipelined read. */
  async parkedAndStaged(channels) {
    if (channels.length === 0) return { parked: 0, staged: 0 };
    const pipeline = this.#redis.pipeline();
    for (const channel of channels) {
      const box = this.#box(channel);
      pipeline.hlen(box.parked).hlen(box.digestStaged);
    }
    const replies = await pipeline.exec() ?? [];
    const sum = (parity) => replies.reduce((total, [, n], i) => total + (i % 2 === parity ? Number(n ?? 0) : 0), 0);
    return { parked: sum(0), staged: sum(1) };
  }
  get #withWork() {
    return stateKeys(this.#root).subscriberOutboxesWithWork;
  }
  #box(channel) {
    return stateKeys(this.#root).outbox(channel);
  }
}
function claimantMarker(claimant) {
  return `"claimedBy":${JSON.stringify(claimant)}`;
}
function restorableItem(field, raw) {
  const item = /^item:(.*):\d+$/.exec(field);
  if (item?.[1] !== void 0) {
    const read2 = readRecord(outboxItemSchema, raw);
    return read2.ok ? { id: item[1], json: raw } : void 0;
  }
  if (!field.startsWith("inflight:")) return void 0;
  const read = readRecord(inflightSchema, raw);
  if (!read.ok) return void 0;
  const { deliveryId, message, digestBatch } = read.value;
  const json = recordJson(outboxItemSchema, {
    kind: "message",
    deliveryId,
    message,
    ...digestBatch ? { digestBatch } : {}
  });
  return { id: deliveryId, json };
}
function marker(deliveryId) {
  return `"deliveryId":${JSON.stringify(deliveryId)}`;
}
export {
  Outbox,
  inflightSchema2 as inflightSchema,
  outboxItemSchema2 as outboxItemSchema,
  parkedSchema2 as parkedSchema
};
