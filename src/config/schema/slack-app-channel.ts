import { z } from 'zod';
import { channelBase, kindTag, ratePerSecond, requestTimeout, slackMention } from './channel-base.js';
import { secret } from './value-types.js';

/** A Slack app channel: a bot token posting through Slack's Web API (`chat.postMessage`). */
export const slackAppFields = z
  .strictObject({
    ...channelBase,
    kind: kindTag('slack-app'),
    ratePerSecond: ratePerSecond(1).describe(
      'Messages per second to this channel, the parts of a split message included; Slack allows about one a second per channel for `chat.postMessage`.',
    ),
    token: secret.describe(
      'Bot token (`xoxb-…`, secret) of the Slack app, e.g. from the `SLACK_BOT_TOKEN` environment variable or `tokenFile`. It needs the `chat:write` scope; `directMessages` also needs `users:read`, `users:read.email` and `im:write`.',
    ),
    channel: z
      .string()
      .regex(/^[CGD][A-Z0-9]{2,}$/, 'must be a Slack conversation id such as C0123ABCD')
      .optional()
      .describe(
        "Conversation id to post to (`C…` a channel, `G…` a private one), from the channel's details in Slack; the app must be a member (`/invite @app`). Optional when `directMessages` is set.",
      ),
    directMessages: z
      .array(z.email())
      .max(50)
      .default([])
      .describe(
        'E-mail addresses of Slack users who get every message of this channel as a direct message from the app, each looked up once a day (`users.lookupByEmail`, then `conversations.open`).',
      ),
    apiUrl: z
      .url()
      .default('https://slack.com/api')
      .describe('Base URL of the Web API, without a trailing slash; change it only for a local stand-in.'),
    mention: slackMention,
    timeout: requestTimeout,
  })
  .refine((channel) => channel.channel !== undefined || channel.directMessages.length > 0, {
    message: 'a slack-app channel needs `channel` or `directMessages`',
    path: ['channel'],
  })
  .describe(
    'Slack app with a bot token: Block Kit messages through the Web API (`chat.postMessage`), a thread per issuer and day, corrections edited in place (`chat.update`), optional direct messages; checked by `auth.test`.',
  );
