import { z } from 'zod';
import { EVENT_KINDS, type PositionEvent, type Snapshot } from './types.js';

/** An instant exactly as `Date#toISOString()` writes it, so ISO strings order like the instants. */
const canonicalInstant = z.string().refine((text) => {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}, 'must be an ISO instant as written by toISOString()');

/** A disclosed value on a date, as read back from Redis. */
export const disclosureSchema = z.object({ value: z.number(), date: z.string() });

/** A snapshot position, as read back from Redis. */
export const heldPositionSchema = z.object({ holder: z.string(), value: z.number(), date: z.string() });

/** A stored snapshot; `polledAt` must be canonical because the commit script compares it as a string. */
export const snapshotSchema = z.object({
  issuerId: z.string().min(1),
  issuerName: z.string(),
  positions: z.record(z.string(), heldPositionSchema),
  lastUpdated: z.string().nullable(),
  upstreamUpdated: z.string().nullable().optional(),
  polledAt: canonicalInstant,
}) satisfies z.ZodType<Snapshot>;

/** A stored event, as read back from the event log. */
export const positionEventSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(EVENT_KINDS),
  issuer: z.object({ id: z.string(), name: z.string() }),
  holderKey: z.string(),
  holder: z.string(),
  previous: disclosureSchema.nullable(),
  current: disclosureSchema.nullable(),
  final: disclosureSchema.optional(),
  delta: z.number(),
  thresholdsCrossed: z.array(z.number()),
  issuerTotal: z.object({ before: z.number(), after: z.number() }),
  detectedAt: z.string(),
}) satisfies z.ZodType<PositionEvent>;
