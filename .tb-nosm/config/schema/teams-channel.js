import { z } from "zod";
import { channelBase, kindTag, requestTimeout } from "./channel-base.js";
import { secret } from "./value-types.js";
const TEAMS_MAX_RATE = 4;
const teamsFields = z.strictObject({
  ...channelBase,
  kind: kindTag("teams"),
  ratePerSecond: z.number().positive().max(TEAMS_MAX_RATE).default(TEAMS_MAX_RATE).describe(
    "Requests per second allowed to this channel, the parts of a split message included; Teams takes at most 4 a second per webhook."
  ),
  webhookUrl: secret.describe(
    "Workflows webhook URL (secret: its `sig=` parameter signs every request), e.g. from the `TEAMS_WEBHOOK_URL` environment variable or `webhookUrlFile`."
  ),
  timeout: requestTimeout
}).describe(
  'Microsoft Teams channel through a Workflows webhook ("Post to a channel when a webhook request is received"): Adaptive Cards, long messages split into several.'
);
export {
  teamsFields
};
