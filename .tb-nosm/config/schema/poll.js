import { z } from "zod";
import { regimeBoundarySchema } from "./sources.js";
import { duration, percent } from "./value-types.js";
const EVENTS_KEPT_DEFAULT = 60;
const pollSchema = z.strictObject({
  gate: z.boolean().default(true).describe("Use the issuer list's `last_updated` as a gate: poll issuers only when the dataset moved."),
  gateInterval: duration.prefault("2m").describe(
    "How often the gate (one GET /issuers) is checked; raised by the planner when the budget needs it."
  ),
  interval: duration.prefault("30m").describe("Sweep interval when the gate is off; the planner raises it to fit the daily budget."),
  maxStaleness: duration.prefault("6h").describe("Poll every issuer at least this often even when `last_updated` has not moved."),
  concurrency: z.number().int().min(1).max(64).default(4).describe("Poll jobs run at once in each process."),
  lockDuration: duration.refine((ms) => ms >= 1e3, "must be at least 1s").prefault("30s").describe(
    "How long a poll or a sweep held by a process that died stays claimed before another process runs it again; a running one renews its claim every half of this."
  ),
  onFirstSeen: z.enum(["baseline", "alert"]).default("baseline").describe(
    "First observation of an issuer: `baseline` (silent) or `alert` (every position is `opened`)."
  ),
  thresholds: z.array(percent).default([0.5, 1, 2, 5]).describe("Position thresholds (%) whose crossing is reported on each event."),
  enrichClosed: z.boolean().default(true).describe(
    "Fetch `status=all` to add the final disclosed value to `closed` events when the budget has room."
  ),
  overdueAfter: duration.optional().describe(
    "How long an issuer may stay due without a successful poll before an ops notice says so; default two gate intervals (two sweep intervals without the gate)."
  ),
  notFoundNoticeAfter: duration.prefault("1h").describe(
    "How long an issuer the directory still lists may keep answering 404 before an ops notice says so."
  ),
  confirmClosedShare: z.number().min(0).max(1).default(0.2).describe(
    "Share of the watchlist's positions that may close in one dataset refresh before each further close is confirmed by a second request."
  ),
  regimeBoundary: regimeBoundarySchema.prefault({}).describe(
    "When watched issuers' named holders vanishing from the API are a regime change rather than closes: the built-in calendar (an entry's `isin` or `market`), `namedHoldersUntil`, or more than `share` of the issuers that named holders (at least three) emptying in one dataset version, confirmed by a read `emptiedConfirmAfter` later."
  ),
  emptiedConfirmAfter: duration.optional().describe(
    "How long an issuer whose whole list emptied waits before the confirming read that decides between closes and a regime change; default: the sweep interval."
  ),
  eventsKept: z.number().int().min(0).max(1e4).default(EVENTS_KEPT_DEFAULT).describe(
    "Events kept per issuer (and ten times as many across issuers) for `shortwatch events` and the console's event pages. About 1.5 KB each: the default keeps the event streams under 100 MB at 1,000 issuers (under `noeviction` a full Redis stops everything)."
  )
}).describe("How often the watchlist is looked at.");
export {
  EVENTS_KEPT_DEFAULT,
  pollSchema
};
