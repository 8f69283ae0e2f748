import { errorFromFailure, errorFromResponse } from "./classify.js";
import { BodyTooLargeError, isUpstreamError } from "./errors.js";
import { parseBody } from "./parse-body.js";
import { declaresTooLarge, readLimited } from "./read-body.js";
const ERROR_BODY_LIMIT = 16 * 1024;
async function performAttempt(where, schema, settings) {
  const ctx = { error: where, redact: settings.redact, now: settings.now };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  let status;
  try {
    const response = await settings.dispatcher.request({
      origin: settings.origin,
      path: settings.basePath + where.path,
      method: "GET",
      headers: settings.headers,
      signal: controller.signal,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs
    });
    status = response.statusCode;
    return { ok: true, status, value: await handleResponse(response, schema, ctx, settings) };
  } catch (cause) {
    if (isUpstreamError(cause)) return { ok: false, error: cause };
    const { timeoutMs, maxBodyBytes } = settings;
    return { ok: false, error: errorFromFailure(cause, ctx, { timedOut, timeoutMs, maxBodyBytes, status }) };
  } finally {
    clearTimeout(timer);
  }
}
async function handleResponse(response, schema, ctx, settings) {
  const { statusCode: status, headers, body } = response;
  if (status < 200 || status > 299) {
    const bytes = await readErrorBody(body, Math.min(ERROR_BODY_LIMIT, settings.maxBodyBytes));
    throw errorFromResponse({ status, headers, body: bytes }, ctx);
  }
  const context = { ...ctx.error, status };
  if (declaresTooLarge(headers["content-length"], settings.maxBodyBytes)) {
    body.destroy();
    throw new BodyTooLargeError(context, settings.maxBodyBytes);
  }
  const read = await readLimited(body, settings.maxBodyBytes);
  if (!read.complete) throw new BodyTooLargeError(context, settings.maxBodyBytes);
  return parseBody(read.bytes, schema, context, settings.redact);
}
async function readErrorBody(body, limit) {
  try {
    const read = await readLimited(body, limit);
    return read.complete ? read.bytes : void 0;
  } catch {
    return void 0;
  }
}
export {
  performAttempt
};
