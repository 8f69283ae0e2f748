import { setTimeout as delay } from "node:timers/promises";
import { Agent } from "undici";
import { redactText } from "../config/secret.js";
import { exposesKeyInClear, INSECURE_UPSTREAM_MESSAGE } from "../config/upstream-url.js";
import { performAttempt } from "./attempt.js";
import { backoffDelay } from "./backoff.js";
import { isRetryable, UpstreamTimeoutError } from "./errors.js";
import { issuersPath, positionsPath } from "./operations.js";
import {
  issuerListSchema,
  positionsResponseSchema
} from "./schemas.js";
function createUpstreamClient(options) {
  checkOptions(options);
  const base = new URL(options.baseUrl);
  const key = options.apiKey.reveal();
  const ownsDispatcher = options.dispatcher === void 0;
  const settings = {
    dispatcher: options.dispatcher ?? createAgent(options),
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${key}`, accept: "application/json", "user-agent": "shortwatch" },
    timeoutMs: options.timeoutMs,
    maxBodyBytes: options.maxBodyBytes,
    redact: (text) => redactText(text, [key]),
    now: options.now ?? Date.now
  };
  const sleep = options.sleep ?? ((ms) => delay(ms));
  const random = options.random ?? Math.random;
  async function call({ operation, path, issuerId, schema }) {
    for (let attempt = 1; ; attempt++) {
      const info = { operation, method: "GET", path, attempt };
      await options.beforeRequest?.(info);
      const started = performance.now();
      const outcome = await performAttempt({ operation, method: "GET", path, issuerId }, schema, settings);
      const durationMs = performance.now() - started;
      if (outcome.ok) {
        await options.afterResponse?.({ ...info, status: outcome.status, durationMs });
        return outcome.value;
      }
      const { error } = outcome;
      await options.afterResponse?.({ ...info, status: attemptStatus(error), durationMs, error });
      if (!isRetryable(error) || attempt > options.retries) throw error;
      await sleep(backoffDelay(attempt - 1, options.retryDelayMs, random));
    }
  }
  return {
    listIssuers: () => call({ operation: "issuers", path: issuersPath(), schema: issuerListSchema }),
    getPositions: (issuerId, status = "active") => call({
      operation: "positions",
      path: positionsPath(issuerId, status),
      issuerId,
      schema: positionsResponseSchema
    }),
    close: async () => {
      if (ownsDispatcher) await settings.dispatcher.close();
    }
  };
}
function attemptStatus(error) {
  if (error instanceof UpstreamTimeoutError) return "timeout";
  return error.status ?? "network";
}
function createAgent(options) {
  return new Agent({
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs },
    maxResponseSize: options.maxBodyBytes
  });
}
function checkOptions(options) {
  const protocol = URL.canParse(options.baseUrl) ? new URL(options.baseUrl).protocol : void 0;
  if (protocol !== "http:" && protocol !== "https:")
    throw new TypeError("upstream baseUrl must be an http(s) URL");
  if (exposesKeyInClear(options.baseUrl, options.allowInsecureHttp ?? false))
    throw new TypeError(`upstream baseUrl ${INSECURE_UPSTREAM_MESSAGE}`);
  const positive = { timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes };
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isInteger(value) || value <= 0)
      throw new RangeError(`upstream ${name} must be a positive integer`);
  }
  const nonNegative = { retries: options.retries, retryDelayMs: options.retryDelayMs };
  for (const [name, value] of Object.entries(nonNegative)) {
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`upstream ${name} must be an integer >= 0`);
  }
}
export {
  createUpstreamClient
};
