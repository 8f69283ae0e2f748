import { z } from 'zod';
import { positionEventSchema } from '../positions/schemas.js';
import type { IssuerEvents, Message } from './types.js';

const issuerRefSchema = z.object({ id: z.string(), name: z.string() });

/** One issuer's waiting events read back from Redis (an outbox entry, or a group of a batch). */
export const issuerEventsSchema = z.object({
  issuer: issuerRefSchema,
  events: z.array(positionEventSchema),
}) satisfies z.ZodType<IssuerEvents>;

/** A Message read back from Redis. */
export const messageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('events'),
    issuer: issuerRefSchema,
    events: z.array(positionEventSchema),
  }),
  z.object({ type: z.literal('batch'), groups: z.array(issuerEventsSchema) }),
  z.object({
    type: z.literal('digest'),
    period: z.object({ from: z.string(), to: z.string(), timezone: z.string() }),
    events: z.array(positionEventSchema),
  }),
  z.object({
    type: z.literal('notice'),
    key: z.string(),
    severity: z.enum(['info', 'warning', 'critical', 'resolved']),
    title: z.string(),
    text: z.string(),
  }),
  z.object({ type: z.literal('test'), channel: z.string(), sentAt: z.string() }),
]) satisfies z.ZodType<Message>;
