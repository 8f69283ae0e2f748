import { z } from "zod";
import { isPlainHttpToRemote } from "../upstream-url.js";
import { duration, percent } from "./value-types.js";
const REGISTER_KINDS = [
  "afm-current",
  "afm-history",
  "no-ssr-json",
  "no-ssr-csv",
  "se-fi-current",
  "se-fi-aggregate",
  "uk-ansp-current",
  "uk-ansp-historic",
  "uk-reportable-shares",
  "uk-legacy-holders",
  "it-consob",
  "es-cnmv",
  "ie-cbi",
  "be-fsma-current",
  "be-fsma-history",
  "at-fma-history",
  "pl-knf-html",
  "pl-knf-json-current",
  "pl-knf-json-history",
  "de-banz-current",
  "de-banz-history",
  "fr-amf",
  "fi-fsa-current"
];
const registerFetchSchema = z.strictObject({
  timeout: duration.prefault("60s").describe("Time limit for one file: from the request until the last byte of the body."),
  maxBytes: z.number().int().min(1024).default(25 * 1024 * 1024).describe('Size limit for one file in bytes; a longer body is not read (the register is "not read").'),
  minShrinkRatio: z.number().min(0).max(1).default(0.5).describe(
    "A read with at most this share of the data rows of the last good read is refused as implausible (0.5: half or less)."
  ),
  pageSize: z.number().int().min(1).max(1e5).default(1e3).describe(
    "Records asked per request of a register read by POST (KNF's JSON API pages by it; FIN-FSA's endpoint is asked for this many rows at once)."
  ),
  shrinkFloor: z.number().int().min(0).default(10).describe("The shrink check applies only when the last good read had at least this many data rows.")
});
const registerParseSchema = z.strictObject({
  timeout: duration.prefault("60s").describe(
    'Time limit for decoding and parsing one file in its worker thread; past it the worker is stopped and the file is "not read" (`timeout`).'
  ),
  maxMemory: z.number().int().min(64).default(256).describe(
    'Heap limit of the parsing worker thread in MiB (V8\'s old generation); a file that needs more is "not read" (`too-large`).'
  ),
  maxCells: z.number().int().min(1e3).default(2e6).describe(
    'Most cells one file may hold, counted before the parser runs: rows times columns of each sheet, repeated rows and columns counted (an ODS row repeated 1,000 times counts 1,000 rows); in a CSV every field. A file with more is "not read" (`too-large`).'
  ),
  maxLineBytes: z.number().int().min(1024).default(64 * 1024).describe(
    'Longest line of a CSV file in bytes, checked before the parser runs; a longer one is "not read" (`too-large`).'
  ),
  maxUnpackedBytes: z.number().int().min(1024 * 1024).default(128 * 1024 * 1024).describe(
    "Most bytes a spreadsheet (XLSX, ODS: a zip) may unpack to, measured by inflating every entry SheetJS would read, with a cap; a zip whose directory cannot be walked is refused (`unparseable`)."
  )
});
const aggregateEventsSchema = z.strictObject({
  levels: z.array(percent).default([0.5, 1, 2, 5, 10]).describe("Aggregate levels (%) whose crossing raises `aggregate-crossed`."),
  minChange: z.number().min(0).default(0.01).describe("Smallest move of an aggregate, in percentage points, reported as `aggregate-changed`."),
  belowThresholdMove: z.number().min(0).default(0.2).describe(
    'Move, in percentage points, of "aggregate minus the named positions" (the short interest below the public threshold) that raises `below-threshold-moved`.'
  )
});
const registerWatchlistSchema = z.union([
  z.literal("all").describe("Every issuer the register lists, followed as issuers join and leave it."),
  z.array(z.string().min(1)).min(1).describe("Issuers by ISIN (exact) or by name (case- and whitespace-insensitive).")
]).default("all").describe(
  "Issuers followed in this register: `all`, or a list of ISINs and names. An issuer named here is followed in every source that lists it under that ISIN or name."
);
const regimeBoundarySchema = z.strictObject({
  namedHoldersUntil: z.string().regex(/^\d{4}-\d{2}-\d{2}$/u, "must be a date, YYYY-MM-DD").optional().describe(
    'The last day this source names holders, beside the built-in calendar (UK issuers: named holders end with the positions published up to 2026-07-10; the ANSP starts 2026-07-13). From the next day on, holders it drops are told once per issuer as "named holders no longer published", never as closes.'
  ),
  share: z.number().gt(0).max(1).default(0.5).describe(
    "Where no boundary is known: a read is a regime change only when more than this share of the issuers that named holders empty at once, at least three of them, and a confirming read agrees; fewer are closes."
  )
});
const confirmSchema = z.strictObject({
  share: z.number().min(0).max(1).default(0.05).describe(
    "A read that removes more than this share of the issuers or of the named holders the last read listed is held back (nothing closes or ends) until a later read agrees; a read that restores them commits only what really changed."
  ),
  after: duration.optional().describe("When the held-back read is read again; default: the source's next `interval`.")
});
const PAIRED_KINDS = ["se-fi-current"];
function isPaired(kind) {
  return PAIRED_KINDS.includes(kind);
}
const sourceName = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/u, "must be lower-case letters, digits and -, starting with a letter").describe("Name of the source, shown on every event it raises (e.g. `afm`); unique.");
const INSECURE_SOURCE_MESSAGE = "must be https:// (a file read in clear can be altered on the way); plain http:// is accepted for a loopback host (127.0.0.0/8, ::1, localhost) or with allowInsecure: true on the source";
const registerSourceSchema = z.strictObject({
  name: sourceName,
  kind: z.enum(REGISTER_KINDS).describe("Which register (and so which parser) this source reads."),
  url: z.url().describe("The file's address; the public page of each register is in docs/sources.md."),
  aggregateUrl: z.url().optional().describe(
    "Sweden (`se-fi-current`) only: FI's aggregate file, read with the positions file and joined by company, so the interest below the public threshold (the aggregate from 0.1% minus the named positions) raises `below-threshold-moved`."
  ),
  interval: duration.prefault("1h").describe("How often the file is asked for (one conditional GET: an unchanged file costs a 304)."),
  watchlist: registerWatchlistSchema,
  allowInsecure: z.boolean().default(false).describe(
    "Accept a plain `http://` address (`url`, `aggregateUrl`) of a host that is not loopback. Off, such an address is a config error: a file read in clear can be altered on the way. Loopback (127.0.0.0/8, ::1, localhost) is always accepted."
  ),
  fetch: registerFetchSchema.prefault({}).describe("Limits on each read of the file."),
  parse: registerParseSchema.prefault({}).describe(
    "Limits on decoding and parsing each file, done in a worker thread so a hostile file cannot stall or take down the process."
  ),
  aggregates: aggregateEventsSchema.prefault({}).describe("When issuer aggregates and the interest below the public threshold raise events."),
  regimeBoundary: regimeBoundarySchema.prefault({}).describe("When holders dropped by this register are a regime change rather than closes."),
  confirm: confirmSchema.prefault({}).describe("When a read that removes much of the register waits for a confirming read.")
}).superRefine((source, ctx) => {
  for (const key of ["url", "aggregateUrl"]) {
    const address = source[key];
    if (address !== void 0 && !source.allowInsecure && isPlainHttpToRemote(address))
      ctx.addIssue({ code: "custom", path: [key], message: INSECURE_SOURCE_MESSAGE });
  }
  if (source.aggregateUrl !== void 0 && !isPaired(source.kind)) {
    ctx.addIssue({
      code: "custom",
      path: ["aggregateUrl"],
      message: `only ${PAIRED_KINDS.join(", ")} reads an aggregate file beside its positions`
    });
  }
});
const sourcesSchema = z.array(registerSourceSchema).default([]).describe(
  "Regulators' registers read whole beside the upstream API, or instead of it (a config without `upstream`), each by one conditional GET every `interval` (docs/sources.md)."
);
export {
  PAIRED_KINDS,
  REGISTER_KINDS,
  aggregateEventsSchema,
  confirmSchema,
  isPaired,
  regimeBoundarySchema,
  registerFetchSchema,
  registerParseSchema,
  registerSourceSchema,
  registerWatchlistSchema,
  sourcesSchema
};
