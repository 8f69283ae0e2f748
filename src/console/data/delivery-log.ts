import { z } from 'zod';
import { stateKeys } from '../../state/keys.js';
import type { RedisClient } from '../../state/redis-connection.js';
import { DELIVERIES_KEPT } from '../../state/retention.js';

const recordSchema = z.object({
  channel: z.string(),
  deliveryId: z.string(),
  /** The first `DELIVERY_IDS_LOGGED` event ids of the message. */
  eventIds: z.array(z.string()),
  /** How many events the message carried (records before this count was kept: the ids listed). */
  events: z.number().optional(),
  attempts: z.number(),
  type: z.string(),
});

/** One message the deliverer logged as sent, with the time (Redis' clock) it was logged. */
export interface SentRecord extends z.infer<typeof recordSchema> {
  at: number;
}

function field(fields: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function parseRecord(fields: readonly string[]): SentRecord[] {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(field(fields, 'delivery') ?? ''));
    const at = Number(field(fields, 'at'));
    return parsed.success && Number.isFinite(at) ? [{ ...parsed.data, at }] : [];
  } catch {
    // An entry we cannot read says nothing about delivery: it is left out, never guessed.
    return [];
  }
}

/**
 * Reads the stream of sent messages (`<t>:deliveries`, written by the deliverer's finish script) back,
 * newest first, down to `sinceMs` (the stream's ids are Redis' milliseconds) and at most `limit` entries.
 */
export async function sentSince(
  redis: RedisClient,
  root: string,
  sinceMs: number,
  limit: number = DELIVERIES_KEPT,
): Promise<SentRecord[]> {
  const from = Math.max(0, Math.floor(sinceMs));
  const entries = await redis.xrevrange(stateKeys(root).deliveries, '+', String(from), 'COUNT', limit);
  return entries.flatMap(([, fields]) => parseRecord(fields));
}
