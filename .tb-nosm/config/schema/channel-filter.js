import { z } from "zod";
import { percent } from "./value-types.js";
const filterSchema = z.strictObject({
  issuers: z.array(z.string().min(1)).optional().describe(
    "Issuer ids or names; default: every watched issuer. `check`, `start` and a reload refuse one the upstream's issuer list does not have, naming the closest, unless `sources` is set and it is an ISIN or in a source's `watchlist`. Without `upstream` there is no issuer list: every entry is taken as the ISIN or name of a register's issuer, unchecked (a register's issuers are known only once it is read)."
  ),
  holders: z.array(z.string().min(1)).optional().describe(
    "Holder names matched by holder key (spelling-insensitive). `check`, `start` and a reload refuse one near a known holder but matching none, and warn of one near none (not disclosed yet?). Known: the stored snapshots and event log, and every holder of the registers' files (a register never read yet is read once by `check` and `start`). The upstream's holders are known from its first sweep on: before it, a warning says they were not checked."
  ),
  excludeHolders: z.array(z.string().min(1)).optional().describe("Holder names never sent to this channel."),
  kinds: z.array(z.enum(["opened", "increased", "decreased", "closed"])).optional().describe("Event kinds to send."),
  minValue: percent.optional().describe("Minimum of the larger of the old and new value, in %."),
  minDelta: percent.optional().describe("Minimum absolute change, in percentage points."),
  thresholds: z.array(percent).optional().describe("Send only events whose position crosses one of these values (%), up or down."),
  issuerTotalThresholds: z.array(percent).optional().describe("Send only events whose issuer total disclosed short crosses one of these values (%).")
}).describe("Which events a channel receives. Every list is optional; an empty filter passes everything.");
export {
  filterSchema
};
