import { IncomingWebhookHTTPError, IncomingWebhookRequestError } from "@slack/webhook";
import { z } from "zod";
import { parseRetryAfter } from "../../time/retry-after.js";
import { DeliveryError } from "../delivery-error.js";
import { httpRefusal } from "../http-refusal.js";
import { isUnreachableUrl } from "../unreachable-host.js";
const MAX_CODE_CHARS = 100;
const causeWithCode = z.object({ code: z.string() });
function networkCode(error) {
  const own = causeWithCode.safeParse(error);
  if (own.success) return own.data.code;
  const cause = causeWithCode.safeParse(error.cause);
  return cause.success ? cause.data.code : void 0;
}
function fromHttpError(error, ctx, where) {
  const status = error.statusCode;
  const body = ctx.redact(error.body.trim()).slice(0, MAX_CODE_CHARS);
  const code = body || `http_${status}`;
  const retryAfterMs = parseRetryAfter(ctx.retryAfter ?? void 0, ctx.nowMs, ctx.date ?? void 0);
  return httpRefusal(`Slack webhook answered ${status} ${code}${where}`, { status, code, retryAfterMs });
}
function classifySlackFailure(error, ctx) {
  const { where } = ctx;
  if (error instanceof IncomingWebhookHTTPError) return fromHttpError(error, ctx, where);
  if (error instanceof IncomingWebhookRequestError) {
    const { original } = error;
    if (original.name === "TimeoutError" || original.name === "AbortError") {
      const message = `Slack webhook gave no response within ${ctx.timeoutMs} ms${where}`;
      return new DeliveryError(message, { outcome: "retry", code: "timeout" });
    }
    const code = networkCode(original) ?? "network_error";
    return new DeliveryError(`Slack webhook request failed: ${code}${where}`, {
      outcome: isUnreachableUrl(code) ? "park" : "retry",
      code
    });
  }
  const name = error instanceof Error ? error.name : typeof error;
  return new DeliveryError(`Slack webhook send failed: ${name}${where}`, {
    outcome: "retry",
    code: "unknown"
  });
}
export {
  classifySlackFailure
};
