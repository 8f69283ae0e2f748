import { z } from "zod";
import { filterSchema } from "./channel-filter.js";
import { quietHoursSchema } from "./quiet-hours.js";
import { duration, ianaTimezone } from "./value-types.js";
function kindTag(kind) {
  return z.literal(kind).describe("Which kind of channel this is; it decides which other keys are allowed.");
}
function ratePerSecond(defaultRate) {
  return z.number().positive().max(100).default(defaultRate).describe("Sends per second allowed to this channel.");
}
function everyChange(defaultValue) {
  return z.boolean().default(defaultValue).describe(
    "Send every change as it is detected: no hold while a holder flaps around 0.5%, and the disappearance of a position already told to be below 0.5% is sent too."
  );
}
const requestTimeout = duration.prefault("10s").describe("Request timeout.");
const channelBase = {
  name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, "letters, digits, _ and - only (at most 40)").describe("Unique channel name (letters, digits, `_` and `-`)."),
  filter: filterSchema.prefault({}).describe(
    "Which events this channel receives; every rule given must pass, an empty filter passes everything."
  ),
  mode: z.enum(["immediate", "digest"]).default("immediate").describe(
    "`immediate` sends each poll's events at once; `digest` collects them for a scheduled summary."
  ),
  quietHours: quietHoursSchema.optional().describe("Immediate channels only: hours in which the channel stays silent."),
  schedule: z.string().min(9).optional().describe("Digest channels only: cron pattern, e.g. `30 7 * * 1-5` for weekdays 07:30."),
  timezone: ianaTimezone.default("UTC").describe(
    "IANA time zone: of a digest channel's schedule; of a slack-app channel's days (an issuer's thread covers one) and the times it shows."
  ),
  sendEmpty: z.boolean().default(false).describe("Digest channels only: send a digest even when nothing happened in its period."),
  everyChange: everyChange(false),
  attempts: z.number().int().min(1).max(50).default(8).describe("Delivery attempts before the job is parked."),
  backoff: duration.prefault("2s").describe("First retry delay; doubles each attempt, with jitter.")
};
const slackMention = z.string().optional().describe("Mentions added to each message, from config only (e.g. `<!here>`, `<@U123>`).");
export {
  channelBase,
  everyChange,
  kindTag,
  ratePerSecond,
  requestTimeout,
  slackMention
};
