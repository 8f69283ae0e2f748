import { z } from "zod";
import { EVENT_KINDS } from "./types.js";
const canonicalInstant = z.string().refine((text) => {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}, "must be an ISO instant as written by toISOString()");
const disclosureSchema = z.object({
  value: z.number(),
  date: z.string(),
  reportedOn: z.string().optional()
});
const heldPositionSchema = z.object({ holder: z.string(), value: z.number(), date: z.string() });
const holdSchema = z.object({ since: z.string(), until: z.string() });
const holderMemorySchema = z.object({
  below: z.object({ date: z.string(), at: z.string(), toldTo: z.array(z.string()).optional() }).optional(),
  lastCrossing: z.string().optional(),
  hold: holdSchema.optional()
});
const storySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fell-below") }),
  z.object({
    kind: z.literal("below-confirmed"),
    fellBelowOn: z.string(),
    toldTo: z.array(z.string()).optional()
  }),
  z.object({ kind: z.literal("back-above"), fellBelowOn: z.string(), daysBelow: z.number() })
]);
const watchSchema = z.object({ since: z.string(), changes: z.number().int().nonnegative() });
const historySchema = z.object({
  changes: z.number().nonnegative(),
  days: z.number().nonnegative(),
  at: z.string()
});
const snapshotSchema = z.object({
  issuerId: z.string().min(1),
  issuerName: z.string(),
  positions: z.record(z.string(), heldPositionSchema),
  lastUpdated: z.string().nullable(),
  upstreamUpdated: z.string().nullable().optional(),
  polledAt: canonicalInstant,
  generation: z.number().int().nonnegative().optional(),
  memory: z.record(z.string(), holderMemorySchema).optional(),
  watch: watchSchema.optional(),
  history: historySchema.optional()
});
const positionEventSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(EVENT_KINDS),
  issuer: z.object({ id: z.string(), name: z.string() }),
  holderKey: z.string(),
  holder: z.string(),
  holderLei: z.string().optional(),
  previous: disclosureSchema.nullable(),
  current: disclosureSchema.nullable(),
  final: disclosureSchema.optional(),
  delta: z.number(),
  thresholdsCrossed: z.array(z.number()),
  issuerTotal: z.object({ before: z.number(), after: z.number() }),
  detectedAt: z.string(),
  source: z.string().optional(),
  aggregate: z.object({
    kind: z.enum([
      "aggregate-entered",
      "aggregate-ended",
      "aggregate-changed",
      "aggregate-crossed",
      "aggregate-revised",
      "below-threshold-moved",
      "scope-added",
      "scope-removed",
      "named-holders-ended"
    ]),
    thresholdPercent: z.number().optional(),
    direction: z.enum(["up", "down"]).optional(),
    revisedDate: z.string().optional(),
    aggregatePercent: z.number().optional(),
    namedPercent: z.number().optional(),
    namedHolders: z.number().optional()
  }).optional(),
  story: storySchema.optional(),
  hold: holdSchema.optional(),
  hidden: z.object({ count: z.number(), delta: z.number() }).optional()
});
export {
  disclosureSchema,
  heldPositionSchema,
  positionEventSchema,
  snapshotSchema
};
