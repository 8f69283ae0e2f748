import { z } from 'zod';
import { wellFormed } from '../text/well-formed.js';

/** Text from the upstream, made well-formed (no lone surrogates) before anything stores or sends it. */
const text = z.string().transform(wellFormed);

/** A calendar date `YYYY-MM-DD` that really exists (no 2024-02-30). */
export const isoDate = z.string().refine((text) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number);
  const date = new Date(Date.UTC(y ?? 0, (m ?? 0) - 1, d ?? 0));
  return date.getUTCFullYear() === y && date.getUTCMonth() + 1 === m && date.getUTCDate() === d;
}, 'must be a real YYYY-MM-DD date');

/** An ISO 8601 date-time as the service sends it in `last_updated`. */
const dateTime = z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'must be a date-time');

/** A tracked issuer. */
export const issuerSchema = z.object({
  svc_issuer_id: z.string().min(1).transform(wellFormed),
  name: text,
});

/** One disclosed short position. */
export const issuerPositionSchema = z.object({
  date: isoDate,
  value: z.number().finite(),
  position_holder: z.string().min(1).transform(wellFormed),
});

/** Body of `GET /issuers`. */
export const issuerListSchema = z.object({
  data: z.array(issuerSchema),
  last_updated: dateTime.nullable(),
});

/** The `status` filter of the positions operation. */
export const positionStatusSchema = z.enum(['active', 'all']);

/**
 * Body of `GET /issuers/{id}/positions`. Envelope keys the spec does not name (`next`, `total`,
 * `has_more`…) are kept apart in `extra` rather than dropped: they may say the data is one page of several.
 */
export const positionsResponseSchema = z
  .looseObject({
    issuer: issuerSchema,
    status: positionStatusSchema,
    data: z.array(issuerPositionSchema),
    last_updated: dateTime.nullable(),
  })
  .transform(({ issuer, status, data, last_updated, ...rest }) => ({
    issuer,
    status,
    data,
    last_updated,
    ...(Object.keys(rest).length > 0 ? { extra: rest } : {}),
  }));

/** Body of every error response; the 429 body adds `limit` and `window`. Lenient: bodies vary. */
export const errorBodySchema = z.object({
  error: z.string().optional(),
  message: z.string().optional(),
  limit: z.number().optional(),
  window: z.string().optional(),
});

export type Issuer = z.infer<typeof issuerSchema>;
export type IssuerPosition = z.infer<typeof issuerPositionSchema>;
export type IssuerList = z.infer<typeof issuerListSchema>;
export type PositionStatus = z.infer<typeof positionStatusSchema>;
export type PositionsResponse = z.output<typeof positionsResponseSchema> & {
  /** Envelope keys the spec does not name, with their values; absent when there are none. */
  extra?: Record<string, unknown>;
};
export type ErrorBody = z.infer<typeof errorBodySchema>;
