import { z } from "zod";
import { exposesKeyInClear, INSECURE_UPSTREAM_MESSAGE } from "../upstream-url.js";
import { duration, secret } from "./value-types.js";
const upstreamSchema = z.strictObject({
  baseUrl: z.url().describe("Base URL of the service, without a trailing slash."),
  apiKey: secret.describe(
    "Bearer API key (secret), e.g. from the `SHORTWATCH_API_KEY` environment variable or `apiKeyFile`."
  ),
  timeout: duration.prefault("15s").describe("Time allowed for the response headers and for the body, each."),
  maxBodyBytes: z.number().int().positive().default(10 * 1024 * 1024).describe("Largest response body accepted, in bytes."),
  retries: z.number().int().min(0).max(10).default(2).describe("Retries of 5xx, timeouts and network errors (never 4xx)."),
  retryDelay: duration.prefault("500ms").describe("First retry delay; doubles each time, with full jitter."),
  allowInsecureHttp: z.boolean().default(false).describe(
    "Accept a plain `http://` baseUrl on a host that is not loopback, sending the API key unencrypted; loopback hosts (127.0.0.0/8, ::1, localhost) never need it."
  )
}).superRefine((upstream, ctx) => {
  if (exposesKeyInClear(upstream.baseUrl, upstream.allowInsecureHttp)) {
    ctx.addIssue({ code: "custom", path: ["baseUrl"], message: INSECURE_UPSTREAM_MESSAGE });
  }
}).describe(
  "The upstream short-position service (the commercial API, polled per watched issuer within `budget`). Optional: a deployment that reads only the registers of `sources` leaves it out: `watchlist` then stays empty, no API sweep runs and `budget` is not used."
);
export {
  upstreamSchema
};
