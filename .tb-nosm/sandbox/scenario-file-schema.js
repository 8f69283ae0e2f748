import { z } from "zod";
import { isoDate } from "../upstream/schemas.js";
const rowSchema = z.object({
  date: isoDate,
  value: z.number().finite(),
  position_holder: z.string().min(1)
});
const issuerEntrySchema = z.object({
  svc_issuer_id: z.string().min(1),
  name: z.string(),
  /** Every disclosure ever made, as `status=all` returns it. */
  history: z.array(rowSchema).default([]),
  /** The listed rows; when absent, each holder's latest row at or over 0.5%. */
  active: z.array(rowSchema).optional()
});
const scenarioFileSchema = z.object({
  issuers: z.array(issuerEntrySchema),
  last_updated: z.string().refine((text) => !Number.isNaN(Date.parse(text)), "must be a date-time").nullable().default(null),
  /** Today's simulated date; defaults to the latest disclosure date. */
  date: isoDate.optional(),
  /** Seed of the generator that drives later steps; default 1. */
  seed: z.number().int().optional()
}).superRefine((file, ctx) => {
  const seen = /* @__PURE__ */ new Set();
  file.issuers.forEach((issuer, index) => {
    if (seen.has(issuer.svc_issuer_id)) {
      ctx.addIssue({
        code: "custom",
        path: ["issuers", index, "svc_issuer_id"],
        message: "duplicate issuer id"
      });
    }
    seen.add(issuer.svc_issuer_id);
  });
});
export {
  scenarioFileSchema
};
