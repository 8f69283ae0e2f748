import { z } from "zod";
import { channelBase, kindTag, ratePerSecond, requestTimeout, slackMention } from "./channel-base.js";
import { percent, secret } from "./value-types.js";
const broadcastSchema = z.strictObject({
  minDelta: percent.optional().describe(
    "A reply with a change of at least this many percentage points (up or down; a close counts its last value) also goes to the conversation."
  ),
  kinds: z.array(z.enum(["opened", "increased", "decreased", "closed"])).optional().describe("A reply with an event of one of these kinds also goes to the conversation.")
}).refine((rule) => rule.minDelta !== void 0 || (rule.kinds?.length ?? 0) > 0, {
  message: "`broadcast` needs `minDelta` or `kinds`"
}).optional().describe(
  "Thread replies that are also posted to the conversation (`reply_broadcast`: seen in the thread and in the channel): those whose change is at least `minDelta` pp or of one of `kinds`. Omitted: none, every later change of an issuer stays in the issuer's thread of the day."
);
const slackAppFields = z.strictObject({
  ...channelBase,
  kind: kindTag("slack-app"),
  ratePerSecond: ratePerSecond(1).describe(
    "Messages per second to this channel, the parts of a split message included; Slack allows about one a second per channel for `chat.postMessage`."
  ),
  token: secret.describe(
    "Bot token (`xoxb-\u2026`, secret) of the Slack app, e.g. from the `SLACK_BOT_TOKEN` environment variable or `tokenFile`. It needs the `chat:write` scope; `directMessages` also needs `users:read`, `users:read.email` and `im:write`."
  ),
  channel: z.string().regex(/^[CGD][A-Z0-9]{2,}$/, "must be a Slack conversation id such as C0123ABCD").optional().describe(
    "Conversation id to post to (`C\u2026` a channel, `G\u2026` a private one), from the channel's details in Slack; the app must be a member (`/invite @app`). Optional when `directMessages` is set."
  ),
  directMessages: z.array(z.email()).max(50).default([]).describe(
    "E-mail addresses of Slack users who get every message of this channel as a direct message from the app, each looked up once a day (`users.lookupByEmail`, then `conversations.open`)."
  ),
  apiUrl: z.url().default("https://slack.com/api").describe("Base URL of the Web API, without a trailing slash; change it only for a local stand-in."),
  broadcast: broadcastSchema,
  mention: slackMention,
  timeout: requestTimeout
}).refine((channel) => channel.channel !== void 0 || channel.directMessages.length > 0, {
  message: "a slack-app channel needs `channel` or `directMessages`",
  path: ["channel"]
}).describe(
  "Slack app with a bot token: Block Kit messages through the Web API (`chat.postMessage`), a thread per issuer and day, corrections edited in place (`chat.update`), optional direct messages; checked by `auth.test`."
);
export {
  slackAppFields
};
