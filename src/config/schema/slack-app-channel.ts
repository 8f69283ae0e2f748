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
      'Bot token (`xoxb-…`, secret) of the Slack app, e.g. from the `SLACK_BOT_TOKEN` environment variable or `tokenFile`. It needs the `chat:write` scope.',
    ),
    channel: z
      .string()
      .regex(/^[CGD][A-Z0-9]{2,}$/, 'must be a Slack conversation id such as C0123ABCD')
      .describe(
        "Conversation id to post to (`C…` a channel, `G…` a private one), from the channel's details in Slack; the app must be a member (`/invite @app`).",
      ),
    apiUrl: z
      .url()
      .default('https://slack.com/api')
      .describe('Base URL of the Web API, without a trailing slash; change it only for a local stand-in.'),
    mention: slackMention,
    timeout: requestTimeout,
  })
  .describe(
    'Slack app with a bot token: Block Kit messages through the Web API (`chat.postMessage`), checked by `auth.test`.',
  );
