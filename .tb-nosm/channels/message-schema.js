import { z } from "zod";
import { positionEventSchema } from "../positions/schemas.js";
const issuerRefSchema = z.object({ id: z.string(), name: z.string() });
const issuerEventsSchema = z.object({
  issuer: issuerRefSchema,
  events: z.array(positionEventSchema)
});
const messageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("events"),
    issuer: issuerRefSchema,
    events: z.array(positionEventSchema)
  }),
  z.object({ type: z.literal("batch"), groups: z.array(issuerEventsSchema) }),
  z.object({
    type: z.literal("digest"),
    period: z.object({ from: z.string(), to: z.string(), timezone: z.string() }),
    events: z.array(positionEventSchema)
  }),
  z.object({
    type: z.literal("notice"),
    key: z.string(),
    severity: z.enum(["info", "warning", "critical", "resolved"]),
    title: z.string(),
    text: z.string()
  }),
  z.object({ type: z.literal("test"), channel: z.string(), sentAt: z.string() })
]);
export {
  issuerEventsSchema,
  messageSchema
};
