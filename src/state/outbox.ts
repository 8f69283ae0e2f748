import type { Message } from '../channels/types.js';
import { positionEventSchema } from '../positions/schemas.js';
import type { PositionEvent } from '../positions/types.js';
import { type OutboxKeys, stateKeys } from './keys.js';
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
  UPDATE_INFLIGHT_SCRIPT,
} from './outbox-lua.js';
import {
  type Inflight,
  inflightSchema,
  type OutboxItemRecord,
  outboxItemSchema,
  type Parked,
  parkedSchema,
  readRecord,
  recordJson,
} from './outbox-records.js';
import type { RedisClient } from './redis-connection.js';
import { DEDUPE_MEMORY_MS } from './retention.js';
import { parseStored } from './stored-json.js';

export type { Inflight, Parked } from './outbox-records.js';
export { inflightSchema, outboxItemSchema, parkedSchema } from './outbox-records.js';

/** One waiting entry of a channel's outbox, with its id. */
export type OutboxItem = OutboxItemRecord & { id: string };

/** A stored record this code cannot read (not JSON, another version, not its schema), kept as its bytes. */
export interface UnreadableRecord {
  /** The item id (a waiting item), or null for the in-flight record. */
  id: string | null;
  /** Its exact bytes; null for a pending id whose item is missing. */
  raw: Buffer | null;
  reason: string;
}

/** The in-flight record as read: none, a message, or bytes this code cannot read. */
export type InflightRead =
  | { state: 'none' }
  | { state: 'ok'; inflight: Inflight; raw: Buffer }
  | { state: 'unreadable'; record: UnreadableRecord };

/** How much is waiting in one channel's outbox. */
export interface OutboxDepth {
  waiting: number;
  ready: number;
  inflight: number;
  parked: number;
}

/** One outbox's items by state, as {@link Outbox.queueCounts} reads many at once. */
export interface OutboxCounts {
  waiting: number;
  inflight: number;
  parked: number;
  /** Events staged for the channel's next digest. */
  staged: number;
}

/** The outcome of a claim. */
export type ClaimResult = 'claimed' | 'lease-lost' | 'busy';

/** The outcome of a take-over: taken, lost (lease or record changed), or ms the claimant is still given. */
export type TakeOverResult = 'taken' | 'lost' | number;

/**
 * The per-channel outboxes: what is waiting to be sent, the message in flight and the dead letter. Items
 * are added by the poll's commit (events), {@link Outbox.enqueue} (notices, heartbeat) and digest seals;
 * only the holder of a channel's lease claims and finishes messages.
 */
export class Outbox {
  readonly #redis: RedisClient;
  readonly #root: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#root = root;
  }

  /** The pub/sub channel on which channel names are published when their outbox has new work. */
  get wakeChannel(): string {
    return stateKeys(this.#root).outboxWake;
  }

  /** Adds a ready-made message once per id (the dedupe memory); true when it was new. */
  async enqueue(channel: string, deliveryId: string, message: Message, readyAt?: number): Promise<boolean> {
    const box = this.#box(channel);
    const item = recordJson(outboxItemSchema, { kind: 'message', deliveryId, message });
    const reply = await this.#redis.eval(
      ENQUEUE_SCRIPT,
      4,
      box.pending,
      box.items,
      box.seen,
      this.#withWork,
      deliveryId,
      item,
      readyAt ?? '',
      DEDUPE_MEMORY_MS,
      this.wakeChannel,
      channel,
    );
    return reply === 1;
  }

  /**
   * Items ready at `nowMs`, oldest first (at most `limit`), when the next later one becomes ready, and the
   * ready ids whose record cannot be read (for {@link Outbox.setAsideItems}).
   */
  async ready(
    channel: string,
    nowMs: number,
    limit: number,
  ): Promise<{ items: OutboxItem[]; nextReadyAt: number | null; unreadable: UnreadableRecord[] }> {
    const box = this.#box(channel);
    const ids = await this.#redis.zrangebyscore(box.pending, '-inf', nowMs, 'LIMIT', 0, limit);
    const next = await this.#redis.zrangebyscore(
      box.pending,
      `(${nowMs}`,
      '+inf',
      'WITHSCORES',
      'LIMIT',
      0,
      1,
    );
    const nextReadyAt = next[1] === undefined ? null : Number(next[1]);
    if (ids.length === 0) return { items: [], nextReadyAt, unreadable: [] };
    const raws = await this.#redis.hmgetBuffer(box.items, ...ids);
    const items: OutboxItem[] = [];
    const unreadable: UnreadableRecord[] = [];
    ids.forEach((id, index) => {
      const raw = raws[index] ?? null;
      const read = raw === null ? null : readRecord(outboxItemSchema, raw.toString('utf8'));
      if (read?.ok) items.push({ ...read.value, id });
      else unreadable.push({ id, raw, reason: read?.reason ?? 'item missing' });
    });
    return { items, nextReadyAt, unreadable };
  }

  /**
   * Moves unreadable waiting items, each only if still as it was read, out of the queue into the
   * channel's unreadable records (their exact bytes kept); returns how many moved.
   */
  async setAsideItems(channel: string, records: readonly UnreadableRecord[]): Promise<number> {
    const args = records.flatMap((r) =>
      r.id === null ? [] : [r.id, r.raw === null ? 'missing' : 'raw', r.raw ?? ''],
    );
    if (args.length === 0) return 0;
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      SET_ASIDE_ITEMS_SCRIPT,
      3,
      box.pending,
      box.items,
      box.unreadable,
      ...args,
    );
    return Number(reply);
  }

  /** Moves an unreadable in-flight record, if unchanged and `owner` holds the lease, to the unreadable records. */
  async setAsideInflight(channel: string, owner: string, raw: Buffer): Promise<boolean> {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      SET_ASIDE_INFLIGHT_SCRIPT,
      3,
      box.lease,
      box.inflight,
      box.unreadable,
      owner,
      raw,
    );
    return reply === 1;
  }

  /** The records set aside as unreadable: field (`item:<id>:<ms>` or `inflight:<ms>`) → exact bytes. */
  async unreadable(channel: string): Promise<Record<string, Buffer>> {
    return this.#redis.hgetallBuffer(this.#box(channel).unreadable);
  }

  /** The events of a sealed digest period. */
  async digestEvents(channel: string, batchId: string): Promise<PositionEvent[]> {
    const raws = await this.#redis.hvals(this.#box(channel).digestBatch(batchId));
    return raws.flatMap((raw) => {
      const parsed = parseStored(raw, positionEventSchema);
      return parsed.success ? [parsed.data] : [];
    });
  }

  /** The message in flight, if any (an unreadable record reads as none). */
  async inflight(channel: string): Promise<Inflight | null> {
    const read = await this.inflightRecord(channel);
    return read.state === 'ok' ? read.inflight : null;
  }

  /** The in-flight record: none, a message, or bytes this code cannot read. */
  async inflightRecord(channel: string): Promise<InflightRead> {
    const raw = await this.#redis.getBuffer(this.#box(channel).inflight);
    if (raw === null) return { state: 'none' };
    const read = readRecord(inflightSchema, raw.toString('utf8'));
    if (read.ok) return { state: 'ok', inflight: read.value, raw };
    return { state: 'unreadable', record: { id: null, raw, reason: read.reason } };
  }

  /** Moves `itemIds` out of the queue into the in-flight record, if `owner` still holds the lease. */
  async claim(
    channel: string,
    owner: string,
    inflight: Inflight,
    itemIds: readonly string[],
  ): Promise<ClaimResult> {
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
      ...itemIds,
    );
    return reply === 1 ? 'claimed' : reply === 0 ? 'lease-lost' : 'busy';
  }

  /**
   * Rewrites the in-flight record (attempts, parts sent, backoff), as the lease holder `owner` or as the
   * incarnation `claimant` that claimed it; false when neither holds.
   */
  async update(channel: string, owner: string, inflight: Inflight, claimant = ''): Promise<boolean> {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      UPDATE_INFLIGHT_SCRIPT,
      2,
      box.lease,
      box.inflight,
      owner,
      marker(inflight.deliveryId),
      recordJson(inflightSchema, inflight),
      claimant === '' ? '' : claimantMarker(claimant),
    );
    return reply === 1;
  }

  /**
   * Takes the in-flight record read as `raw` over for the lease holder `owner` as `next`, once its
   * claimant's delivery path has been silent for `graceMs` by Redis' clock (see TAKE_OVER_SCRIPT).
   */
  async takeOver(
    channel: string,
    owner: string,
    read: { raw: Buffer; inflight: Inflight },
    graceMs: number,
    next: Inflight,
  ): Promise<TakeOverResult> {
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
        read.inflight.claimedBy ?? '',
        graceMs,
        read.inflight.touchedAt ?? '',
        recordJson(inflightSchema, next),
      ),
    );
    return reply === 1 ? 'taken' : reply === 0 ? 'lost' : -reply;
  }

  /**
   * Ends the in-flight message as sent or parked (dead letter), as the lease holder `owner` or as the
   * incarnation `claimant` that claimed it; false when neither holds or the record is gone.
   */
  async finish(
    channel: string,
    owner: string,
    inflight: Inflight,
    outcome: 'sent' | 'parked',
    nowMs: number,
    claimant = owner,
  ): Promise<boolean> {
    const box = this.#box(channel);
    const parked =
      outcome === 'parked' ? recordJson(parkedSchema, { ...inflight, channel, parkedAt: nowMs }) : '';
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
      inflight.digestBatch ? '1' : '',
      claimantMarker(claimant),
    );
    return reply === 1;
  }

  /**
   * Puts the records set aside as unreadable that this version reads back at the front of the queue
   * (an older process sets aside what a newer one wrote, in a rolling upgrade); returns how many.
   */
  async restoreReadable(channel: string): Promise<number> {
    const box = this.#box(channel);
    const args = Object.entries(await this.unreadable(channel)).flatMap(([field, raw]) => {
      const item = restorableItem(field, raw.toString('utf8'));
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
      ...args,
    );
    return Number(reply);
  }

  /** The channel's parked messages. */
  async parked(channel: string): Promise<Parked[]> {
    const all = await this.#redis.hvals(this.#box(channel).parked);
    return all
      .flatMap((raw) => {
        const read = readRecord(parkedSchema, raw);
        return read.ok ? [read.value] : [];
      })
      .sort((a, b) => a.parkedAt - b.parkedAt);
  }

  /** Puts parked messages (all, or those with the given delivery ids) back at the front; returns how many. */
  async requeue(channel: string, deliveryIds?: readonly string[]): Promise<number> {
    const parked = await this.parked(channel);
    const chosen = parked.filter((p) => deliveryIds === undefined || deliveryIds.includes(p.deliveryId));
    if (chosen.length === 0) return 0;
    const box = this.#box(channel);
    const args = chosen.flatMap((p) => [
      p.deliveryId,
      recordJson<OutboxItemRecord>(outboxItemSchema, {
        kind: 'message',
        deliveryId: p.deliveryId,
        message: p.message,
        ...(p.digestBatch ? { digestBatch: p.digestBatch } : {}),
      }),
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
      ...args,
    );
    return Number(reply);
  }

  /**
   * The channel's shared send state: paused by a 429 until, and when the last message started (the next
   * may start one rate interval later, computed with the rate configured now), with Redis' time `now`:
   * every host compares them on that one clock.
   */
  async sendState(channel: string): Promise<{ pausedUntil: number; lastSentAt: number; now: number }> {
    const reply = await this.#redis.eval(SEND_STATE_SCRIPT, 1, this.#box(channel).state);
    const [pausedUntil, lastSentAt, now] = Array.isArray(reply) ? reply.map(Number) : [];
    if (now === undefined || !Number.isFinite(now)) throw new Error('send state: Redis gave no time');
    return { pausedUntil: pausedUntil || 0, lastSentAt: lastSentAt || 0, now };
  }

  /** Records the shared send state. */
  async setSendState(channel: string, state: { pausedUntil?: number; lastSentAt?: number }): Promise<void> {
    const fields = Object.entries(state).flatMap(([k, v]) => (v === undefined ? [] : [k, String(v)]));
    if (fields.length > 0) await this.#redis.hset(this.#box(channel).state, ...fields);
  }

  /** Counts for `status`, `/metrics` and tests. */
  async depth(channel: string, nowMs: number): Promise<OutboxDepth> {
    const box = this.#box(channel);
    const reply = await this.#redis
      .multi()
      .zcard(box.pending)
      .zcount(box.pending, '-inf', nowMs)
      .exists(box.inflight)
      .hlen(box.parked)
      .exec();
    const n = (i: number) => Number(reply?.[i]?.[1] ?? 0);
    return { waiting: n(0), ready: n(1), inflight: n(2), parked: n(3) };
  }

  /**
   * Since when (epoch ms) the channel's oldest undelivered message waits: the in-flight message since it
   * was claimed, or the oldest item ready at `nowMs` since it became ready; null when neither. Items put
   * back by `deliveries retry` (score 0, the front) count from their claim, not from their first try.
   */
  async oldestUndelivered(channel: string, nowMs: number): Promise<number | null> {
    const box = this.#box(channel);
    const [oldest, raw] = await Promise.all([
      this.#redis.zrangebyscore(box.pending, '(0', nowMs, 'WITHSCORES', 'LIMIT', 0, 1),
      this.#redis.getBuffer(box.inflight),
    ]);
    const read = raw === null ? null : readRecord(inflightSchema, raw.toString('utf8'));
    const candidates = [
      oldest[1] === undefined ? null : Number(oldest[1]),
      read?.ok ? read.value.claimedAt : null,
    ].filter((at): at is number => at !== null && Number.isFinite(at));
    return candidates.length === 0 ? null : Math.min(...candidates);
  }

  /** Events waiting in a digest channel's current period. */
  async stagedCount(channel: string): Promise<number> {
    return this.#redis.hlen(this.#box(channel).digestStaged);
  }

  /**
   * Closes a digest period in one step: the staged events become one sealed batch in the outbox. Sealing
   * is idempotent per period (`scheduledAt`, the time its job was planned for): a period at or before the
   * last one sealed is left alone. Returns the events sealed, -1 when nothing was queued (empty and
   * `sendEmpty` off), -2 when the period was sealed before.
   */
  async sealDigest(
    channel: string,
    batch: {
      batchId: string;
      scheduledAt: number;
      to: string;
      timezone: string;
      sendEmpty: boolean;
      firstFrom: string;
    },
  ): Promise<number> {
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
      batch.scheduledAt,
    );
    return Number(reply);
  }

  /**
   * Subscribers' channels whose outbox may hold work: every script that queues work for one adds it. A
   * drained one stays listed until {@link Outbox.forgetIfIdle} finds it empty.
   */
  async subscriberChannelsWithWork(): Promise<string[]> {
    return this.#redis.smembers(this.#withWork);
  }

  /** Unlists a subscriber's channel whose outbox holds nothing (none waiting, none in flight); true when unlisted. */
  async forgetIfIdle(channel: string): Promise<boolean> {
    const box = this.#box(channel);
    const reply = await this.#redis.eval(
      FORGET_IDLE_SCRIPT,
      3,
      this.#withWork,
      box.pending,
      box.inflight,
      channel,
    );
    return reply === 1;
  }

  /** Parked messages and staged digest events summed over many channels, in one pipelined read. */
  async parkedAndStaged(channels: readonly string[]): Promise<{ parked: number; staged: number }> {
    if (channels.length === 0) return { parked: 0, staged: 0 };
    const pipeline = this.#redis.pipeline();
    for (const channel of channels) {
      const box = this.#box(channel);
      pipeline.hlen(box.parked).hlen(box.digestStaged);
    }
    const replies = (await pipeline.exec()) ?? [];
    const sum = (parity: number) =>
      replies.reduce((total, [, n], i) => total + (i % 2 === parity ? Number(n ?? 0) : 0), 0);
    return { parked: sum(0), staged: sum(1) };
  }

  /**
   * Each channel's queue in one pipelined read: waiting (ready or held), in flight, parked and staged for
   * a digest. For a page listing many subscribers: one round trip, not one per outbox.
   */
  async queueCounts(channels: readonly string[]): Promise<Map<string, OutboxCounts>> {
    const counts = new Map<string, OutboxCounts>();
    if (channels.length === 0) return counts;
    const pipeline = this.#redis.pipeline();
    for (const channel of channels) {
      const box = this.#box(channel);
      pipeline.zcard(box.pending).exists(box.inflight).hlen(box.parked).hlen(box.digestStaged);
    }
    const replies = (await pipeline.exec()) ?? [];
    const n = (i: number) => Number(replies[i]?.[1] ?? 0);
    channels.forEach((channel, c) => {
      const at = c * 4;
      counts.set(channel, { waiting: n(at), inflight: n(at + 1), parked: n(at + 2), staged: n(at + 3) });
    });
    return counts;
  }

  get #withWork(): string {
    return stateKeys(this.#root).subscriberOutboxesWithWork;
  }

  #box(channel: string): OutboxKeys {
    return stateKeys(this.#root).outbox(channel);
  }
}

/** A substring of an in-flight JSON that names `claimant` as the incarnation sending it. */
function claimantMarker(claimant: string): string {
  return `"claimedBy":${JSON.stringify(claimant)}`;
}

/**
 * The waiting item a set-aside record becomes once readable: an item under its own id, or an in-flight
 * message as a ready-made message under its delivery id (it may have been sent: same id, a receiver
 * drops the repeat). Undefined while this version cannot read it either.
 */
function restorableItem(field: string, raw: string): { id: string; json: string } | undefined {
  const item = /^item:(.*):\d+$/.exec(field);
  if (item?.[1] !== undefined) {
    const read = readRecord(outboxItemSchema, raw);
    return read.ok ? { id: item[1], json: raw } : undefined;
  }
  if (!field.startsWith('inflight:')) return undefined;
  const read = readRecord(inflightSchema, raw);
  if (!read.ok) return undefined;
  const { deliveryId, message, digestBatch } = read.value;
  const json = recordJson<OutboxItemRecord>(outboxItemSchema, {
    kind: 'message',
    deliveryId,
    message,
    ...(digestBatch ? { digestBatch } : {}),
  });
  return { id: deliveryId, json };
}

/** A substring only this delivery's in-flight JSON holds, for the fencing checks in the scripts. */
function marker(deliveryId: string): string {
  return `"deliveryId":${JSON.stringify(deliveryId)}`;
}
