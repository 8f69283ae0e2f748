import { z } from "zod";
import { messageSchema } from "../channels/message-schema.js";
import { positionEventSchema } from "../positions/schemas.js";
const RECORD_VERSION = 1;
const periodSchema = z.object({ from: z.string(), to: z.string(), timezone: z.string() });
const outboxItemSchema = z.discriminatedUnion("kind", [
  /** One event of one poll; consecutive events coalesce into one message. */
  z.object({ kind: z.literal("event"), event: positionEventSchema }),
  /** A ready-made message (a notice, the heartbeat, a parked message sent again) under its own delivery id. */
  z.object({
    kind: z.literal("message"),
    deliveryId: z.string(),
    message: messageSchema,
    /** A parked digest sent again: its batch hash is deleted once it is sent. */
    digestBatch: z.string().optional()
  }),
  /** A sealed digest period; its events wait in the batch hash. */
  z.object({ kind: z.literal("digest"), batchId: z.string(), period: periodSchema })
]);
const inflightSchema = z.object({
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
  touchedAt: z.number().optional()
});
const parkedSchema = inflightSchema.extend({ channel: z.string(), parkedAt: z.number() });
function recordJson(schema, value) {
  return JSON.stringify({ v: RECORD_VERSION, ...schema.parse(value) });
}
function readRecord(schema, raw) {
  let json;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const version = typeof json === "object" && json !== null && "v" in json ? json.v : RECORD_VERSION;
  if (version !== RECORD_VERSION) return { ok: false, reason: `unknown record version ${String(version)}` };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, reason: "not a valid record" };
}
export {
  RECORD_VERSION,
  inflightSchema,
  outboxItemSchema,
  parkedSchema,
  readRecord,
  recordJson
};
