import { z } from "zod";
const label = z.string().optional().describe("Display label used in messages.");
const isin = z.string().regex(/^[A-Z]{2}[A-Z0-9]{9}\d$/u, "must be an ISIN (two letters, nine letters or digits, a check digit)").optional().describe(
  "The issuer's ISIN (the API gives none): its country places the issuer in a market whose named holders end on a known date (UK: positions published up to 2026-07-10)."
);
const market = z.string().regex(/^[A-Za-z]{2}$/u, "must be a two-letter country code").optional().describe("The market (ISIN country, e.g. `GB`) when no ISIN is given: the same use as `isin`.");
const watchEntrySchema = z.union([
  z.strictObject({
    id: z.string().min(1).describe("Upstream issuer id (`svc_issuer_id`), taken as given."),
    label,
    isin,
    market
  }),
  z.strictObject({
    name: z.string().min(1).describe("Issuer name, resolved against the issuer list case- and whitespace-insensitively."),
    label,
    isin,
    market
  })
]).describe("One watched issuer, by upstream id or by name.");
const watchlistSchema = z.union(
  [
    z.literal("all").describe(
      "The whole directory: every issuer `GET /issuers` lists, followed as issuers join and leave it."
    ),
    z.array(watchEntrySchema)
  ],
  // A failed union names no branch; say which form was meant and, for a list, which entry is wrong.
  {
    error: (issue) => issue.code === "invalid_union" ? watchlistError(issue.errors[1]?.[0]?.path[0]) : void 0
  }
).default([]).describe(
  "Issuers to watch through the upstream API (so only with `upstream`): a list, each by upstream `id` or by `name`; or `all`, the whole directory, followed as issuers join it (their first poll is a silent baseline) and leave it (no longer polled, no notice; the snapshot is kept)."
);
function watchlistError(entry) {
  return typeof entry === "number" ? `entry [${entry}] must have \`id\` or \`name\` (and may have \`label\`, \`isin\`, \`market\`), nothing else` : "must be `all` (the whole directory) or a list of issuers, each by `id` or `name`";
}
export {
  watchEntrySchema,
  watchlistSchema
};
