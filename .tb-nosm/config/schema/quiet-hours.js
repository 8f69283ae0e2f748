import { z } from "zod";
import { ianaTimezone } from "./value-types.js";
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM (24-hour)");
const weekday = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
const quietHoursSchema = z.strictObject({
  days: z.array(weekday).default(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]).describe("Days on which quiet hours apply; default every day."),
  start: clockTime.describe(
    "Start of the quiet period, local time (may be after `end`, spanning midnight)."
  ),
  end: clockTime.describe("End of the quiet period, local time."),
  timezone: ianaTimezone.describe("IANA time zone of `start` and `end`."),
  foldInto: z.string().optional().describe(
    "Name of a digest channel to fold quiet events into; default: deliver them when quiet hours end."
  )
}).describe("Hours in which an immediate channel stays silent.");
export {
  quietHoursSchema
};
