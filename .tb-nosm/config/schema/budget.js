import { z } from "zod";
import { duration, positiveCount } from "./value-types.js";
const budgetSchema = z.strictObject({
  perMinute: positiveCount.default(100).describe("Requests allowed per minute window (UTC-aligned)."),
  perDay: positiveCount.default(1e3).describe("Requests allowed per day window (UTC-aligned)."),
  reserve: z.number().int().min(0).default(50).describe("Daily requests kept for interactive CLI commands; polling never spends them."),
  gateShare: z.number().gt(0).max(1).default(0.1).describe(
    "Most of each minute window's requests the gate (GET /issuers) may take, so polls are never starved by gate checks; the planner raises `poll.gateInterval` to keep to it."
  ),
  minuteWindow: duration.prefault("1m").describe("Length of the short window; shorten only for tests and benchmarks."),
  dayWindow: duration.prefault("1d").describe("Length of the long window; shorten only for tests and benchmarks."),
  probeInterval: duration.refine((ms) => ms > 0, "must be more than 0").prefault("1h").describe(
    "After a 429 without Retry-After for the day window (or a window it does not name), how often one request, from any process, checks whether the upstream answers again."
  )
}).describe(
  "The plan's request caps, shared through Redis by every process and every deployment with the same upstream base URL and API key."
);
export {
  budgetSchema
};
