import { z } from 'zod';
import { duration, secret } from './value-types.js';

/** Schema of the `subscribers` section. */
export const subscribersSchema = z
  .strictObject({
    email: z
      .string()
      .describe(
        "Name of an `email` channel whose SMTP server, sender and rate carry every subscriber's e-mail (its own `to` and `filter` do not apply to them).",
      ),
    linkSecret: secret
      .refine((value) => value.reveal().length >= 32, 'must be at least 32 characters')
      .describe(
        'Key (secret) that signs the "Manage my alerts" and unsubscribe links in every subscriber message, at least 32 random characters, e.g. `openssl rand -base64 32`. A new key revokes every link handed out.',
      ),
    linkTtl: duration
      .prefault('30d')
      .describe('How long a link in a message stays valid; a subscriber can always ask for a fresh one.'),
    publicUrl: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .optional()
      .describe(
        'Base URL of the links in subscriber messages (the console behind its proxy); default `http.publicUrl`. The preference and unsubscribe pages are served on the console port, without the console token.',
      ),
  })
  .describe(
    'Traders managed at runtime (`shortwatch subscribers`), each with their own watchlist, preferences and one-click unsubscribe.',
  );

/** The `subscribers` section. */
export type SubscribersConfig = z.output<typeof subscribersSchema>;
