import { z } from "zod";
import { duration } from "./value-types.js";
const alertsSchema = z.strictObject({
  reopenWindow: duration.prefault("30d").describe(
    'A holder back above 0.5% within this long after it fell below reads "back above 0.5% after N days"; later it reads as a new position.'
  ),
  flapWindow: duration.prefault("15m").describe(
    "A holder crossing 0.5% again within this long is flapping: its changes are held and sent as one message with the sequence when the window ends (channels with `everyChange` get each at once). `0s` sends every change at once."
  ),
  confirmedCloses: z.enum(["digest", "silent"]).default("digest").describe(
    "A position that fell below 0.5% and then leaves the register was already told: `digest` lists the confirmation as a quiet line in digests, `silent` leaves it to the event log and `everyChange` channels. Immediate human channels told the fall never send it again; one that was not told (its filter left the fall out) gets the close."
  )
}).describe("How changes around the 0.5% public disclosure threshold are told.");
const ALERT_DEFAULTS = alertsSchema.parse({});
export {
  ALERT_DEFAULTS,
  alertsSchema
};
