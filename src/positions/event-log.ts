import type { Redis } from 'ioredis';
import { z } from 'zod';
import { EventLogCorruptError } from './event-log-corrupt-error.js';
import { positionEventSchema } from './schemas.js';
import type { PositionEvent } from './types.js';

/** How long an appended id is remembered, so a replayed poll never logs its events twice. */
const SEEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The one field of each stream entry: the event as JSON. */
const FIELD = 'event';

/** The global stream keeps this many times the per-issuer cap. */
const GLOBAL_FACTOR = 10;

/**
 * KEYS[1] global stream; for event i: KEYS[2i] its seen marker, KEYS[2i+1] its issuer stream.
 * ARGV[1] per-issuer cap, ARGV[2] global cap, ARGV[3] seen TTL (s), ARGV[3+i] event JSON.
 * One script, so the seen marker and both entries are written together or not at all.
 */
const APPEND_SCRIPT = `
local stored = 0
for i = 1, (#KEYS - 1) / 2 do
  if redis.call('SET', KEYS[2 * i], '1', 'NX', 'EX', ARGV[3]) then
    redis.call('XADD', KEYS[2 * i + 1], 'MAXLEN', '~', ARGV[1], '*', '${FIELD}', ARGV[3 + i])
    redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', '${FIELD}', ARGV[3 + i])
    stored = stored + 1
  end
end
return stored
`;

/** Recent events for `shortwatch events` and status: capped Redis streams, per issuer and global. */
export class EventLog {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxPerIssuer: number,
  ) {
    if (!Number.isInteger(maxPerIssuer) || maxPerIssuer < 0) {
      throw new RangeError(`maxPerIssuer must be a non-negative integer, got ${maxPerIssuer}`);
    }
  }

  /** Appends events whose ids were not appended before (30-day memory); returns how many were stored. */
  async append(events: readonly PositionEvent[]): Promise<number> {
    // A cap of 0 (`eventsKept: 0`) turns the log off.
    if (events.length === 0 || this.maxPerIssuer === 0) return 0;
    const keys = [this.globalKey()];
    for (const event of events) keys.push(this.seenKey(event.id), this.issuerKey(event.issuer.id));
    const reply = await this.redis.eval(
      APPEND_SCRIPT,
      keys.length,
      ...keys,
      this.maxPerIssuer,
      this.maxPerIssuer * GLOBAL_FACTOR,
      SEEN_TTL_SECONDS,
      ...events.map((event) => JSON.stringify(event)),
    );
    return z.number().int().min(0).parse(reply);
  }

  /** The newest events first, of one issuer or of all; throws EventLogCorruptError on an unreadable entry. */
  async recent(options: { issuerId?: string; limit: number }): Promise<PositionEvent[]> {
    if (options.limit <= 0) return [];
    const key = options.issuerId === undefined ? this.globalKey() : this.issuerKey(options.issuerId);
    const entries = await this.redis.xrevrange(key, '+', '-', 'COUNT', options.limit);
    return entries.map(([entryId, fields]) => parseEntry(key, entryId, fields));
  }

  private globalKey(): string {
    return `${this.prefix}:events`;
  }

  private issuerKey(issuerId: string): string {
    return `${this.prefix}:events:${issuerId}`;
  }

  private seenKey(eventId: string): string {
    return `${this.prefix}:event-seen:${eventId}`;
  }
}

function parseEntry(key: string, entryId: string, fields: readonly string[]): PositionEvent {
  const index = fields.indexOf(FIELD);
  const raw = index % 2 === 0 ? fields[index + 1] : undefined;
  if (raw === undefined) throw new EventLogCorruptError(key, entryId);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (cause) {
    throw new EventLogCorruptError(key, entryId, { cause });
  }
  const parsed = positionEventSchema.safeParse(json);
  if (!parsed.success) throw new EventLogCorruptError(key, entryId, { cause: parsed.error });
  return parsed.data;
}
