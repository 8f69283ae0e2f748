import type { Redis } from 'ioredis';
import { z } from 'zod';
import { positionEventSchema } from '../positions/schemas.js';
import type { PositionEvent } from '../positions/types.js';
import { stateKeys } from './keys.js';
import { digestBatchId, KEEP_COMPLETED } from './queues.js';

const batchMetaSchema = z.object({ batchId: z.string(), from: z.string(), to: z.string() });

/** The events of one digest period, claimed for sending. */
export interface DigestBatch {
  batchId: string;
  from: string;
  to: string;
  events: PositionEvent[];
}

// Moves the staged hash to the batch key unless a batch is already claimed (a crashed run's batch is
// sent before anything newer), so a restart never loses or re-reads half of a period.
const CLAIM = `
local existing = redis.call('GET', KEYS[3])
if existing then return existing end
local meta = cjson.decode(ARGV[1])
local last = redis.call('HGET', KEYS[4], 'lastDigestAt') or redis.call('HGET', KEYS[4], 'firstStagedAt')
if last then meta.from = last end
local encoded = cjson.encode(meta)
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('RENAME', KEYS[1], KEYS[2]) end
redis.call('SET', KEYS[3], encoded)
return encoded
`;

// Stages each event id once per channel for as long as delivery job ids are kept: a poll replayed after
// a crash (its events staged, its snapshot not yet committed) must not put them into a later period
// once an earlier digest already sent them. KEYS: staged, meta, seen; ARGV: now ISO, now ms, keep ms,
// then id and JSON of each event.
const STAGE = `
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
local added = 0
for i = 4, #ARGV, 2 do
  if redis.call('ZADD', KEYS[3], 'NX', ARGV[2], ARGV[i]) == 1 then
    redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
    added = added + 1
  end
end
if added > 0 then redis.call('HSETNX', KEYS[2], 'firstStagedAt', ARGV[1]) end
return added
`;

/** Events staged for digest channels, and the crash-safe hand-over of one period to the sender. */
export class DigestStore {
  readonly #redis: Redis;
  readonly #keys: ReturnType<typeof stateKeys>;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#keys = stateKeys(prefix);
  }

  /** Adds events to a digest channel's current period; an event staged before, in any period, is not added again. */
  async stage(channel: string, events: readonly PositionEvent[], now: Date): Promise<void> {
    if (events.length === 0) return;
    const keys = this.#keys;
    await this.#redis.eval(
      STAGE,
      3,
      keys.digestStaged(channel),
      keys.digestMeta(channel),
      keys.digestSeen(channel),
      now.toISOString(),
      now.getTime(),
      KEEP_COMPLETED.age * 1000,
      ...events.flatMap((event) => [event.id, JSON.stringify(event)]),
    );
  }

  /** Number of events waiting in each channel's current period. */
  async stagedCount(channel: string): Promise<number> {
    return this.#redis.hlen(this.#keys.digestStaged(channel));
  }

  /** Claims the period ending now (or the batch a crashed run left behind). */
  async claim(channel: string, now: Date, firstPeriodStart: Date): Promise<DigestBatch> {
    const keys = this.#keys;
    const proposal = {
      batchId: digestBatchId(channel, now.getTime()),
      from: firstPeriodStart.toISOString(),
      to: now.toISOString(),
    };
    const raw = await this.#redis.eval(
      CLAIM,
      4,
      keys.digestStaged(channel),
      keys.digestBatch(channel),
      `${keys.digestBatch(channel)}:meta`,
      keys.digestMeta(channel),
      JSON.stringify(proposal),
    );
    const meta = batchMetaSchema.parse(JSON.parse(String(raw)));
    const entries = await this.#redis.hvals(keys.digestBatch(channel));
    const events = entries.map((entry) => positionEventSchema.parse(JSON.parse(entry)));
    return { ...meta, events };
  }

  /** Closes a period once its delivery is safely queued: the next one starts where it ended. */
  async finish(channel: string, batch: DigestBatch): Promise<void> {
    const keys = this.#keys;
    await this.#redis
      .multi()
      .del(keys.digestBatch(channel), `${keys.digestBatch(channel)}:meta`)
      .hset(keys.digestMeta(channel), 'lastDigestAt', batch.to)
      .exec();
  }
}
