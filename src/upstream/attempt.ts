import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { type ClassifyContext, errorFromFailure, errorFromResponse } from './classify.js';
import { BodyTooLargeError, isUpstreamError, type UpstreamError } from './errors.js';
import { parseBody } from './parse-body.js';
import { declaresTooLarge, readLimited } from './read-body.js';

// Error bodies are a few hundred bytes; more is read no further (the status alone still classifies).
const ERROR_BODY_LIMIT = 16 * 1024;

/** Everything one attempt needs besides the request itself. */
export interface AttemptSettings {
  dispatcher: Dispatcher;
  origin: string;
  /** Path prefix of the base URL without trailing slash, usually empty. */
  basePath: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxBodyBytes: number;
  redact: (text: string) => string;
  now: () => number;
}

/** A validated 2xx response, or the typed error the attempt ended with. */
export type AttemptOutcome<T> = { ok: true; status: number; value: T } | { ok: false; error: UpstreamError };

/**
 * Sends one GET and returns its validated body or its typed error (never throws). The whole attempt
 * (connect, headers, body) must finish within `timeoutMs`; every body is consumed or destroyed.
 */
export async function performAttempt<T>(
  where: ClassifyContext['error'],
  schema: z.ZodType<T>,
  settings: AttemptSettings,
): Promise<AttemptOutcome<T>> {
  const ctx: ClassifyContext = { error: where, redact: settings.redact, now: settings.now };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.timeoutMs);
  let status: number | undefined;
  try {
    const response = await settings.dispatcher.request({
      origin: settings.origin,
      path: settings.basePath + where.path,
      method: 'GET',
      headers: settings.headers,
      signal: controller.signal,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
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

async function handleResponse<T>(
  response: Dispatcher.ResponseData,
  schema: z.ZodType<T>,
  ctx: ClassifyContext,
  settings: AttemptSettings,
): Promise<T> {
  const { statusCode: status, headers, body } = response;
  if (status < 200 || status > 299) {
    const bytes = await readErrorBody(body, Math.min(ERROR_BODY_LIMIT, settings.maxBodyBytes));
    throw errorFromResponse({ status, headers, body: bytes }, ctx);
  }
  const context = { ...ctx.error, status };
  if (declaresTooLarge(headers['content-length'], settings.maxBodyBytes)) {
    body.destroy();
    throw new BodyTooLargeError(context, settings.maxBodyBytes);
  }
  const read = await readLimited(body, settings.maxBodyBytes);
  if (!read.complete) throw new BodyTooLargeError(context, settings.maxBodyBytes);
  return parseBody(read.bytes, schema, context, settings.redact);
}

// A failure while reading an error body must not hide the status, which is what matters.
async function readErrorBody(
  body: Dispatcher.ResponseData['body'],
  limit: number,
): Promise<Buffer | undefined> {
  try {
    const read = await readLimited(body, limit);
    return read.complete ? read.bytes : undefined;
  } catch {
    return undefined;
  }
}
