import { isSnapshotCorruptError } from "../state/snapshot-corrupt-error.js";
import {
  BodyTooLargeError,
  InvalidRequestError,
  isUpstreamError,
  SchemaError,
  ServerError,
  UnexpectedStatusError,
  UpstreamNetworkError,
  UpstreamTimeoutError
} from "../upstream/errors.js";
class ImplausibleAnswerError extends Error {
  name = "ImplausibleAnswerError";
  reason;
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}
function failureCause(error) {
  if (error instanceof ImplausibleAnswerError) return error.reason;
  if (isSnapshotCorruptError(error)) return "corrupt-snapshot";
  if (!isUpstreamError(error)) return "internal";
  if (error instanceof InvalidRequestError) return "bad-request";
  if (error instanceof SchemaError) return "schema";
  if (error instanceof ServerError) return "server";
  if (error instanceof UpstreamTimeoutError) return "timeout";
  if (error instanceof UpstreamNetworkError) return "network";
  if (error instanceof BodyTooLargeError) return "too-large";
  if (error instanceof UnexpectedStatusError) return "unexpected-status";
  return "internal";
}
const DETERMINISTIC = /* @__PURE__ */ new Set([
  "bad-request",
  "schema",
  "too-large",
  "wrong-issuer",
  "status-echo",
  "backwards",
  "partial",
  "corrupt-snapshot"
]);
function isDeterministic(cause) {
  return DETERMINISTIC.has(cause);
}
const CAUSE_TEXT = {
  "bad-request": "the upstream answers 400 (bad request)",
  schema: "the upstream answers bodies that do not match the documented schema",
  server: "the upstream answers 5xx",
  timeout: "the upstream does not answer in time",
  network: "the upstream cannot be reached",
  "too-large": "the upstream answers bodies larger than upstream.maxBodyBytes",
  "unexpected-status": "the upstream answers an undocumented status",
  "wrong-issuer": "the upstream answers for another issuer",
  "status-echo": "the upstream ignores the status=active filter",
  backwards: "the upstream answers data older than what shortwatch already holds (a stale cache?)",
  partial: "the upstream answers one page of several (pagination shortwatch does not follow)",
  "corrupt-snapshot": "the stored snapshot cannot be read; `shortwatch resume ISSUER` starts it afresh (silently re-baselined)",
  internal: "shortwatch itself failed (see the log)"
};
function nextPollTry(inputs) {
  const { blip, attemptsMade, attempts, jobBackoffMs, healthRetryAt, nowMs } = inputs;
  if (blip && attemptsMade + 1 < attempts) return nowMs + jobBackoffMs * 2 ** attemptsMade;
  return healthRetryAt;
}
export {
  CAUSE_TEXT,
  ImplausibleAnswerError,
  failureCause,
  isDeterministic,
  nextPollTry
};
