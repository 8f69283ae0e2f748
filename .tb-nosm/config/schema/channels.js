import { z } from "zod";
import { isSecret } from "../secret.js";
import {
  channelBase,
  everyChange,
  kindTag,
  ratePerSecond,
  requestTimeout,
  slackMention
} from "./channel-base.js";
import { slackAppFields } from "./slack-app-channel.js";
import { standardWebhooksSecretProblem } from "./standard-webhooks-secret.js";
import { teamsFields } from "./teams-channel.js";
import { secret } from "./value-types.js";
const slackFields = z.strictObject({
  ...channelBase,
  kind: kindTag("slack"),
  ratePerSecond: ratePerSecond(1),
  webhookUrl: secret.describe(
    "Incoming webhook URL (secret), e.g. from the `SLACK_WEBHOOK_URL` environment variable or `webhookUrlFile`."
  ),
  mention: slackMention,
  timeout: requestTimeout
}).describe("Slack incoming webhook: Block Kit messages with a plain-text fallback.");
const smtpFields = {
  smtpUrl: secret.optional().describe("SMTP URL (secret), e.g. `smtps://user:pass@mail.example.com:465`."),
  host: z.string().optional().describe("SMTP host, when no `smtpUrl` is given."),
  port: z.number().int().min(1).max(65535).optional().describe("SMTP port."),
  secure: z.boolean().optional().describe("Implicit TLS (port 465); STARTTLS is used when offered otherwise."),
  auth: z.strictObject({
    user: z.string().describe("SMTP user name."),
    pass: secret.describe(
      "SMTP password (secret), e.g. from the `SMTP_PASSWORD` environment variable or `passFile`."
    )
  }).optional().describe("SMTP credentials."),
  from: z.string().min(3).describe("Sender address."),
  to: z.array(z.string().min(3)).min(1).describe("Recipients."),
  maxConnections: z.number().int().min(1).max(20).default(5).describe(
    "Pooled SMTP connections: a burst's e-mails (one per issuer) go out side by side over them. 1 sends one issuer's e-mail at a time."
  )
};
const emailFields = z.strictObject({
  ...channelBase,
  kind: kindTag("email"),
  ratePerSecond: ratePerSecond(25).describe(
    "E-mails per second over the pool, a burst's included. Most relays take 25; lower it to what yours accepts (e.g. an Amazon SES account's sending rate, or 0.5 for Microsoft 365's 30 a minute)."
  ),
  ...smtpFields
}).describe("Email through pooled SMTP, with HTML and plain-text parts.");
const webhookFields = z.strictObject({
  ...channelBase,
  kind: kindTag("webhook"),
  everyChange: everyChange(true),
  ratePerSecond: ratePerSecond(10),
  url: secret.describe("Endpoint receiving a JSON POST (secret: URLs often carry tokens)."),
  signingSecret: secret.describe(
    'Standard Webhooks signing key (secret): `whsec_` and the base64 of 24 to 64 random bytes, e.g. from `echo "whsec_$(openssl rand -base64 32)"`; receivers verify with the same key.'
  ),
  timeout: requestTimeout
}).superRefine((channel, ctx) => {
  if (!isSecret(channel.signingSecret)) return;
  const problem = standardWebhooksSecretProblem(channel.signingSecret.reveal());
  if (problem) ctx.addIssue({ code: "custom", path: ["signingSecret"], message: problem });
}).describe(
  "A JSON POST to any HTTP endpoint, every call signed per the Standard Webhooks spec (`webhook-id`, `webhook-timestamp`, `webhook-signature`)."
);
const consoleFields = z.strictObject({
  ...channelBase,
  kind: kindTag("console"),
  everyChange: everyChange(true),
  ratePerSecond: ratePerSecond(100)
}).describe("One JSON line per message on standard output; for pipelines and for trying shortwatch out.");
const channelSchema = z.discriminatedUnion("kind", [
  slackFields,
  emailFields,
  webhookFields,
  consoleFields,
  teamsFields,
  slackAppFields
]);
const channelsSchema = z.array(channelSchema).default([]).describe("Where alerts go; one entry per channel, each with its own filter, mode and queue.");
export {
  channelSchema,
  channelsSchema
};
