import { z } from "zod";
import { redactText } from "../../config/secret.js";
import { DeliveryError } from "../delivery-error.js";
import { oneLine } from "./text.js";
const smtpErrorShape = z.object({
  code: z.string().optional().catch(void 0),
  originalCode: z.string().optional().catch(void 0),
  responseCode: z.number().int().optional().catch(void 0),
  permanent: z.boolean().optional().catch(void 0),
  response: z.string().optional().catch(void 0),
  command: z.string().optional().catch(void 0)
});
const PARK_CODES = /* @__PURE__ */ new Set([
  "EAUTH",
  "ENOAUTH",
  "EENVELOPE",
  "EMESSAGE",
  "ECONFIG",
  "EREQUIRETLS"
]);
const MAX_RESPONSE_CHARS = 200;
function smtpOutcome(fields) {
  if (fields.responseCode !== void 0) {
    return fields.permanent === true ? "park" : "retry";
  }
  if (fields.code !== void 0 && PARK_CODES.has(fields.code)) return "park";
  return "retry";
}
function describe(fields, secrets) {
  if (fields.responseCode !== void 0) {
    const reply = fields.response ? oneLine(redactText(fields.response, secrets)).slice(0, MAX_RESPONSE_CHARS) : "";
    const command = fields.command ? ` to ${fields.command}` : "";
    return `server replied${command}: ${reply || fields.responseCode}`;
  }
  const code = fields.code ?? "unknown error";
  return fields.originalCode && fields.originalCode !== code ? `${code} (${fields.originalCode})` : code;
}
function toDeliveryError(error, context) {
  const parsed = smtpErrorShape.safeParse(error);
  const fields = parsed.success ? parsed.data : {};
  const outcome = smtpOutcome(fields);
  return new DeliveryError(
    `SMTP ${context.server}: ${context.action} failed: ${describe(fields, context.secrets)}`,
    {
      outcome,
      status: fields.responseCode,
      code: fields.code
    }
  );
}
export {
  smtpOutcome,
  toDeliveryError
};
