import { z } from 'zod';
import { isLoopbackHost } from '../upstream-url.js';
import { duration, secret } from './value-types.js';

/** Schema of the `subscribers` section. */
export const subscribersSchema = z
  .strictObject({
    email: z
      .string()
      .describe(
        "Name of an `email` channel whose SMTP server, sender and rate carry every subscriber's e-mail (its own `to` and `filter` do not apply to them).",
      ),
    webhook: z
      .string()
      .optional()
      .describe(
        "Name of a `webhook` channel whose signing key, timeout and rate carry subscribers' personal webhooks (a subscriber's `webhook` URL replaces its `url`; its own filter does not apply to them). Without it a subscriber's webhook is not used.",
      ),
    slack: z
      .string()
      .optional()
      .describe(
        "Name of a `slack-app` channel whose bot sends each subscriber with a `slackUser` their alerts as direct messages (its token needs `im:write`, and `users:read.email` for users given by address). Without it a subscriber's Slack user is not used.",
      ),
    linkSecret: secret
      .refine((value) => value.reveal().length >= 32, 'must be at least 32 characters')
      .describe(
        'Key (secret) that signs the "Manage my alerts" and unsubscribe links in every subscriber message, at least 32 random characters, e.g. `openssl rand -base64 32`. A new key revokes every link handed out.',
      ),
    linkTtl: duration
      .prefault('30d')
      .describe('How long a link in a message stays valid; a subscriber can always ask for a fresh one.'),
    deliverers: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(8)
      .describe(
        "Subscribers' outboxes each `start` or `worker` process drains at once; the others with mail wait their turn, first come first served, and a drained one frees its place at once. They all share the one SMTP pool of `email`, which sends no faster with more: a few keep it busy, thousands would only hold leases, claims and memory (and after a crash, each claimed message waits `delivery.claimGrace`).",
      ),
    publicUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .refine(
        (url) => url.startsWith('https:') || isLoopbackHost(new URL(url).hostname),
        'must be https:// (RFC 8058 one-click needs it) unless it is a loopback address',
      )
      .optional()
      .describe(
        'Base URL of the links in subscriber messages (the HTTP endpoint behind its proxy, https beyond loopback: mail clients POST the one-click unsubscribe there); default `http.publicUrl`. The preference and unsubscribe pages are served on `http.port` whether or not the console is on, without the console token.',
      ),
  })
  .describe(
    'Traders managed at runtime (`shortwatch subscribers`), each with their own watchlist, preferences and one-click unsubscribe.',
  );
