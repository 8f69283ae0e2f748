import { z } from 'zod';
import { duration } from './value-types.js';

/** Schema of the `retention` section. */
export const retentionSchema = z
  .strictObject({
    deliveries: duration
      .prefault('400d')
      .describe(
        "How long the record of sent messages keeps each attempt (its answer, the ids the receiver saw): `shortwatch deliveries export` and the console's deliveries page read it. Older rows are trimmed as new ones are written.",
      ),
    deliveryRows: z
      .number()
      .int()
      .min(1_000)
      .default(250_000)
      .describe(
        "Most attempt rows the record keeps, whatever their age: the oldest go first. A row is about 660 bytes, but a batch lists every issuer and holder it carried, so `deliveryMemory` is what bounds the record's memory.",
      ),
    // 48 MiB: about 70,000 typical rows (660 bytes), some seven months of a 1,000-issuer deployment with
    // three channels (docs/operations.md), and with Redis' own cost of a row over what the bound counts
    // (at most RECORD_MEMORY_FACTOR, 1.5) the record stays under 75 MB whatever its rows carry.
    deliveryMemory: z
      .number()
      .int()
      .min(1)
      .default(48)
      .describe(
        "Most bytes the record's rows may hold, in MiB (the rows' JSON plus a fixed 32 bytes each; Redis' memory for them runs up to 1.5 times that): the oldest rows go first. The ceiling of the record whatever its rows carry (docs/operations.md, \"The record of sent messages\").",
      ),
  })
  .describe('How long shortwatch keeps what it has told each channel.');
