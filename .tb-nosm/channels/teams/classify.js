import { z } from "zod";
import { parseRetryAfter } from "../../time/retry-after.js";
import { DeliveryError } from "../delivery-error.js";
import { httpRefusal } from "../http-refusal.js";
import { isUnreachableUrl } from "../unreachable-host.js";
const MAX_CODE_CHARS = 100;
const errorBody = z.object({ error: z.object({ code: z.string() }) });
function errorCode(answer, redact) {
  let parsed;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    parsed = void 0;
  }
  const code = errorBody.safeParse(parsed).data?.error.code;
  return code ? redact(code).slice(0, MAX_CODE_CHARS) : `http_${answer.status}`;
}
function classifyTeamsAnswer(answer, ctx) {
  const { status } = answer;
  const code = errorCode(answer, ctx.redact);
  const retryAfterMs = parseRetryAfter(answer.retryAfter, ctx.nowMs, answer.date);
  return httpRefusal(`Teams webhook answered ${status} ${code}${ctx.where}`, { status, code, retryAfterMs });
}
function classifyTeamsFailure(error, ctx) {
  const code = error instanceof Error && "code" in error ? String(error.code) : "network_error";
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
    return new DeliveryError(`Teams webhook gave no response within ${ctx.timeoutMs} ms${ctx.where}`, {
      outcome: "retry",
      code: "timeout"
    });
  }
  return new DeliveryError(`Teams webhook request failed: ${code}${ctx.where}`, {
    outcome: isUnreachableUrl(code) ? "park" : "retry",
    code
  });
}
export {
  classifyTeamsAnswer,
  classifyTeamsFailure
};
