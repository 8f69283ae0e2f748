import { z } from "zod";
import { wellFormed } from "../text/well-formed.js";
const text = z.string().transform(wellFormed);
const isoDate = z.string().refine((text2) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text2);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y ?? 0, (m ?? 0) - 1, d ?? 0));
  return date.getUTCFullYear() === y && date.getUTCMonth() + 1 === m && date.getUTCDate() === d;
}, "must be a real YYYY-MM-DD date");
const dateTime = z.string().refine((text2) => !Number.isNaN(Date.parse(text2)), "must be a date-time");
const issuerSchema = z.object({
  svc_issuer_id: z.string().min(1).transform(wellFormed),
  name: text
});
const issuerPositionSchema = z.object({
  date: isoDate,
  value: z.number().finite(),
  position_holder: z.string().min(1).transform(wellFormed)
});
const issuerListSchema = z.object({
  data: z.array(issuerSchema),
  last_updated: dateTime.nullable()
});
const positionStatusSchema = z.enum(["active", "all"]);
const positionsResponseSchema = z.looseObject({
  issuer: issuerSchema,
  status: positionStatusSchema,
  data: z.array(issuerPositionSchema),
  last_updated: dateTime.nullable()
}).transform(({ issuer, status, data, last_updated, ...rest }) => ({
  issuer,
  status,
  data,
  last_updated,
  ...Object.keys(rest).length > 0 ? { extra: rest } : {}
}));
const errorBodySchema = z.object({
  error: z.string().optional(),
  message: z.string().optional(),
  limit: z.number().optional(),
  window: z.string().optional()
});
export {
  errorBodySchema,
  isoDate,
  issuerListSchema,
  issuerPositionSchema,
  issuerSchema,
  positionStatusSchema,
  positionsResponseSchema
};
