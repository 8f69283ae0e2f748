import { z } from 'zod';
import { messageSchema } from '../channels/message-schema.js';
import { positionEventSchema } from '../positions/schemas.js';

/**
 * The records of a channel's outbox as stored in Redis: waiting items, the message in flight and the
 * dead letter. Each is written with `v` = {@link RECORD_VERSION}; one without `v` was written before
 * records had versions and reads as version 1. A record that is not JSON, carries another version or
 * does not match its schema is unreadable: the deliverer sets it aside with its raw bytes
 * (`Outbox.setAside*`) instead of skipping it for ever.
 */

/** The version of the outbox records this code writes and reads. */
export const RECORD_VERSION = 1;

const periodSchema = z.object({ from: z.string(), to: z.string(), timezone: z.string() });

/** One waiting entry of a channel's outbox. */
export const outboxItemSchema = z.discriminatedUnion('kind', [
  /** One event of one poll; consecutive events coalesce into one message. */
  z.object({ kind: z.literal('event'), event: positionEventSchema }),
  /** A ready-made message (a notice, the heartbeat, a parked message sent again) under its own delivery id. */
  z.object({
    kind: z.literal('message'),
    deliveryId: z.string(),
    message: messageSchema,
    /** A parked digest sent again: its batch hash is deleted once it is sent. */
    digestBatch: z.string().optional(),
  }),
  /** A sealed digest period; its events wait in the batch hash. */
  z.object({ kind: z.literal('digest'), batchId: z.string(), period: periodSchema }),
]);

/** One waiting entry of a channel's outbox, as written. */
export type OutboxItemRecord = z.infer<typeof outboxItemSchema>;

/** The message a channel is sending: claimed from the outbox, retried under the same delivery id. */
export const inflightSchema = z.object({
  deliveryId: z.string(),
  message: messageSchema,
  eventIds: z.array(z.string()),
  attempts: z.number().int().min(0),
  partsSent: z.number().int().min(0),
  /** Epoch ms before which it is not tried again (backoff). */
  nextAttemptAt: z.number(),
  /** The sealed digest batch whose events the message carries, deleted once sent. */
  digestBatch: z.string().optional(),
  lastError: z.string().optional(),
  claimedAt: z.number(),
  /** The lease owner (process and channel) that sends it now: another holder leaves it a grace period. */
  claimedBy: z.string().optional(),
  /** Epoch ms of the claimant's last word on it (claim, a part sent, a retry). */
  touchedAt: z.number().optional(),
});

/** The message a channel is sending. */
export type Inflight = z.infer<typeof inflightSchema>;

/** A message that failed for good: the dead letter, until `shortwatch deliveries retry`. */
export const parkedSchema = inflightSchema.extend({ channel: z.string(), parkedAt: z.number() });

/** A parked message. */
export type Parked = z.infer<typeof parkedSchema>;

/** A record read back: its value, or why it cannot be used. */
export type RecordRead<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The JSON of a record, stamped with the current version (after checking it against its schema). */
export function recordJson<T extends object>(schema: z.ZodType<T>, value: T): string {
  return JSON.stringify({ v: RECORD_VERSION, ...schema.parse(value) });
}

/** Reads one stored record: JSON, a version this code knows, then the schema. */
export function readRecord<T>(schema: z.ZodType<T>, raw: string): RecordRead<T> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const version = typeof json === 'object' && json !== null && 'v' in json ? json.v : RECORD_VERSION;
  if (version !== RECORD_VERSION) return { ok: false, reason: `unknown record version ${String(version)}` };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: 'not a valid record' };
}
