import { z } from 'zod';
import { stateKeys } from './keys.js';
import type { RedisClient } from './redis-connection.js';
import { parseStored } from './stored-json.js';

/** One send attempt's answer, as written: what went to which channel, and what the receiver said. */
export const attemptRowSchema = z.object({
  channel: z.string(),
  channelKind: z.string(),
  /** The idempotency key the receiver saw (webhook `webhook-id`, Teams card foot, Slack/console text). */
  deliveryId: z.string(),
  /**
   * The e-mail `Message-ID` header, on e-mail channels; a burst's delivery is one e-mail per issuer, whose
   * Message-IDs are listed space-separated, in order (rows written before named `<delivery id@domain>` only).
   */
  messageId: z.string().optional(),
  /** The message's type: events, batch, digest, notice, test. */
  type: z.string(),
  issuers: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Holder names as the message showed them, each once. */
  holders: z.array(z.string()),
  kinds: z.array(z.string()),
  events: z.number().int().min(0),
  /**
   * The first `DELIVERY_IDS_LOGGED` ids of the events the message carried (`events` counts them all): the
   * console's events page joins each event to its message by them. Rows written before had none.
   */
  eventIds: z.array(z.string()).optional(),
  /**
   * The distinct dates the sources give the message's events (position dates) and the distinct times
   * shortwatch first saw them (detected), sorted, each the first `DELIVERY_TIMES_LOGGED`: the two differ
   * for a late filing. Rows written before had none.
   */
  disclosedOn: z.array(z.string()).optional(),
  firstSeen: z.array(z.string()).optional(),
  answer: z.enum(['ok', 'error']),
  /** What the error asked for: try again later, pause the channel, or give up (park). */
  action: z.enum(['retry', 'rate-limit', 'park']).optional(),
  /** The error's cause: a channel error code (`no_service`, `EENVELOPE`…) or the error class. */
  cause: z.string().optional(),
  /** The receiver's status: HTTP status or SMTP reply code. */
  status: z.number().int().optional(),
  error: z.string().optional(),
});

/** One send attempt's answer, as written. */
export type AttemptRow = z.infer<typeof attemptRowSchema>;

/** A row read back: with its stream id and the time (Redis' clock, epoch ms) the answer was recorded. */
export interface RecordedAttempt extends AttemptRow {
  id: string;
  at: number;
}

/** How long and how much the record keeps (config `retention`). */
export interface RecordLimits {
  maxAgeMs: number;
  maxRows: number;
  /** Most bytes the rows may hold: their JSON plus {@link ROW_OVERHEAD_BYTES} each. */
  maxBytes: number;
}

/**
 * What a row costs besides its JSON in the byte count: Redis' stream entry around a small row measured
 * about 31 bytes (its id, the field name, the lengths); larger rows cost a few per cent more, which the
 * bound's ceiling allows for (bench/footprint.ts measures it).
 */
export const ROW_OVERHEAD_BYTES = 32;

/**
 * Rows one write removes at most: in the steady state a write removes about one old row; after the
 * limits were lowered, the record comes down over the next writes instead of in one long script.
 */
const TRIM_PER_WRITE = 1_000;

/**
 * Appends one row, then removes the oldest rows while the record is over any of its limits (rows, bytes,
 * age measured from the new entry's id on Redis' clock, so every host trims alike), keeping the byte
 * count of what is left beside it. A record from before the byte count has none: it is estimated once
 * from its newest rows. The new row always stays. KEYS: record, byte count. ARGV: max rows, max age ms,
 * row JSON, max bytes, row overhead bytes, most rows removed.
 */
const APPEND_SCRIPT = `
local overhead = tonumber(ARGV[5])
if redis.call('EXISTS', KEYS[2]) == 0 then
  local rows = redis.call('XLEN', KEYS[1])
  local sample = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 100)
  local sampled = 0
  for _, entry in ipairs(sample) do sampled = sampled + #(entry[2][2] or '') + overhead end
  redis.call('SET', KEYS[2], #sample > 0 and math.floor(sampled / #sample * rows) or 0)
end
local id = redis.call('XADD', KEYS[1], '*', 'a', ARGV[3])
local bytes = redis.call('INCRBY', KEYS[2], #ARGV[3] + overhead)
local oldest = tonumber(string.match(id, '^(%d+)')) - tonumber(ARGV[2])
local rows = redis.call('XLEN', KEYS[1])
local removed = 0
while rows > 1 and removed < tonumber(ARGV[6]) do
  local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  local over = bytes > tonumber(ARGV[4]) or rows > tonumber(ARGV[1])
  if not over and tonumber(string.match(first[1], '^(%d+)')) >= oldest then break end
  redis.call('XDEL', KEYS[1], first[1])
  bytes = redis.call('INCRBY', KEYS[2], -(#(first[2][2] or '') + overhead))
  rows = rows - 1
  removed = removed + 1
end
if bytes < 0 then redis.call('SET', KEYS[2], 0) end
return id
`;

const PAGE = 1_000;

/**
 * The record of every message sent: one stream entry per send attempt's answer (ok, or the error's cause
 * and status), with what the message carried (issuers, holders, kinds) and the ids its receiver saw.
 * Kept for `retention.deliveries`, at most `retention.deliveryRows` entries and `retention.deliveryMemory`
 * bytes, trimmed on every write, so it never grows without bound, even under `noeviction`.
 */
export class DeliveryRecord {
  readonly #redis: RedisClient;
  readonly #key: string;
  readonly #bytesKey: string;

  constructor(redis: RedisClient, root: string) {
    this.#redis = redis;
    this.#key = stateKeys(root).record;
    this.#bytesKey = stateKeys(root).recordBytes;
  }

  /** Records one attempt's answer; returns its stream id. */
  async append(row: AttemptRow, limits: RecordLimits): Promise<string> {
    const json = JSON.stringify(attemptRowSchema.parse(row));
    const id = await this.#redis.eval(
      APPEND_SCRIPT,
      2,
      this.#key,
      this.#bytesKey,
      limits.maxRows,
      limits.maxAgeMs,
      json,
      limits.maxBytes,
      ROW_OVERHEAD_BYTES,
      TRIM_PER_WRITE,
    );
    return String(id);
  }

  /**
   * Rows recorded from `sinceMs` up to `untilMs` (both inclusive), a page at a time: oldest first, or
   * newest first with `newestFirst`.
   */
  async *pages(sinceMs: number, untilMs: number, newestFirst = false): AsyncGenerator<RecordedAttempt[]> {
    let low = String(Math.max(0, Math.floor(sinceMs)));
    let high = String(Math.max(0, Math.floor(untilMs)));
    for (;;) {
      const entries = newestFirst
        ? await this.#redis.xrevrange(this.#key, high, low, 'COUNT', PAGE)
        : await this.#redis.xrange(this.#key, low, high, 'COUNT', PAGE);
      const rows = entries.flatMap(([id, fields]) => readRow(id, fields));
      if (rows.length > 0) yield rows;
      const last = entries.at(-1);
      if (!last || entries.length < PAGE) return;
      if (newestFirst) high = `(${last[0]}`;
      else low = `(${last[0]}`;
    }
  }

  /** Rows up to `untilMs`, newest first, at most `count`, down to `sinceMs`. */
  async newest(sinceMs: number, untilMs: number, count: number): Promise<RecordedAttempt[]> {
    const since = String(Math.max(0, Math.floor(sinceMs)));
    const until = String(Math.max(0, Math.floor(untilMs)));
    const entries = await this.#redis.xrevrange(this.#key, until, since, 'COUNT', count);
    return entries.flatMap(([id, fields]) => readRow(id, fields));
  }

  /** Rows kept now (for `status` and tests). */
  async size(): Promise<number> {
    return this.#redis.xlen(this.#key);
  }

  /** Bytes the kept rows hold, as the byte bound counts them (0 before the first write). */
  async bytes(): Promise<number> {
    return Number((await this.#redis.get(this.#bytesKey)) ?? 0);
  }
}

function readRow(id: string, fields: readonly string[]): RecordedAttempt[] {
  const at = Number(id.split('-')[0]);
  const index = fields.indexOf('a');
  const raw = index >= 0 && index % 2 === 0 ? fields[index + 1] : undefined;
  if (raw === undefined || !Number.isFinite(at)) return [];
  // A row we cannot read says nothing reliable: it is left out, never guessed.
  const parsed = parseStored(raw, attemptRowSchema);
  return parsed.success ? [{ ...parsed.data, id, at }] : [];
}
