import { z } from 'zod';

// Written once and used by both entry forms, so the two cannot drift apart in the docs.
const label = z.string().optional().describe('Display label used in messages.');

/** Schema of one watchlist entry. */
export const watchEntrySchema = z
  .union([
    z.strictObject({
      id: z.string().min(1).describe('Upstream issuer id (`svc_issuer_id`), taken as given.'),
      label,
    }),
    z.strictObject({
      name: z
        .string()
        .min(1)
        .describe('Issuer name, resolved against the issuer list case- and whitespace-insensitively.'),
      label,
    }),
  ])
  .describe('One watched issuer, by upstream id or by name.');

/** Schema of the `watchlist` section. */
export const watchlistSchema = z
  .array(watchEntrySchema)
  .default([])
  .describe('Issuers to watch, each by upstream `id` or by `name`.');

/** One watchlist entry. */
export type WatchEntry = z.output<typeof watchEntrySchema>;
