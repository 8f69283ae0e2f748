import { z } from "zod";
import { duration } from "./value-types.js";
const retentionSchema = z.strictObject({
  deliveries: duration.prefault("400d").describe(
    "How long the record of sent messages keeps each attempt (its answer, the ids the receiver saw): `shortwatch deliveries export` and the console's deliveries page read it. Older rows are trimmed as new ones are written."
  ),
  deliveryRows: z.number().int().min(1e3).default(25e4).describe(
    'Most attempt rows the record keeps, whatever their age: the oldest go first. About 660 bytes a row, so the default caps the record near 165 MB of Redis memory (docs/operations.md, "The record of sent messages").'
  )
}).describe("How long shortwatch keeps what it has told each channel.");
export {
  retentionSchema
};
