import { parseRetryAfter } from "../../time/retry-after.js";
import { DeliveryError } from "../delivery-error.js";
import { httpRefusal } from "../http-refusal.js";
import { isUnreachableUrl } from "../unreachable-host.js";
const RETRYABLE = /* @__PURE__ */ new Set(["internal_error", "fatal_error", "service_unavailable", "request_timeout"]);
const MAX_CODE_CHARS = 100;
function classifyWebApiAnswer(answer, ctx) {
  const code = (answer.body?.error ?? `http_${answer.status}`).slice(0, MAX_CODE_CHARS);
  const message = `Slack ${ctx.method} answered ${answer.status} ${code}${ctx.where}`;
  const retryAfterMs = parseRetryAfter(answer.retryAfter, ctx.nowMs, answer.date);
  if (answer.status !== 200) return httpRefusal(message, { status: answer.status, code, retryAfterMs });
  if (code === "ratelimited") return httpRefusal(message, { status: 429, code, retryAfterMs });
  return new DeliveryError(message, { outcome: RETRYABLE.has(code) ? "retry" : "park", status: 200, code });
}
function classifyWebApiFailure(error, ctx) {
  const code = error instanceof Error && "code" in error ? String(error.code) : "network_error";
  return new DeliveryError(`Slack ${ctx.method} request failed: ${code}${ctx.where}`, {
    outcome: isUnreachableUrl(code) ? "park" : "retry",
    code
  });
}
export {
  classifyWebApiAnswer,
  classifyWebApiFailure
};
