import { z } from 'zod';
import { quietHoursSchema } from '../config/schema/quiet-hours.js';
import { ianaTimezone, percent } from '../config/schema/value-types.js';
import { isLoopbackHost } from '../config/upstream-url.js';
import { EVENT_KINDS } from '../positions/types.js';

/** How a subscriber is told: at once, in their own digest, or both. */
export const DELIVERY_MODES = ['immediate', 'digest', 'both'] as const;

const eventKind = z.enum(EVENT_KINDS as ['opened', 'increased', 'decreased', 'closed']);
const email = z
  .string()
  .trim()
  .regex(/^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/u, 'is not an e-mail address');

/**
 * What a subscriber follows. An event reaches them when its issuer is in `issuers` (any holder) or its
 * holder is in `holders` (anywhere): the two lists widen, never narrow, each other.
 */
export const subscriberWatchSchema = z.strictObject({
  /** Issuers by id, ISIN or name, across every source. */
  issuers: z.array(z.string().trim().min(1)).default([]),
  /** Holders by name or entity key, matched as channel filters match them (spelling-insensitive prefix). */
  holders: z.array(z.string().trim().min(1)).default([]),
});

/** What a subscriber wants of what they follow, and how. */
export const subscriberPrefsSchema = z.strictObject({
  kinds: z.array(eventKind).default([]),
  minValue: percent.optional(),
  minDelta: percent.optional(),
  /** Register aggregates (an issuer's whole short interest) of followed issuers. */
  aggregates: z.boolean().default(true),
  mode: z.enum(DELIVERY_MODES).default('immediate'),
  /** Their digest's cron pattern and time zone, when `mode` is `digest` or `both`. */
  digestSchedule: z.string().min(9).default('30 7 * * 1-5'),
  timezone: ianaTimezone.default('UTC'),
  quietHours: quietHoursSchema.omit({ foldInto: true }).optional(),
  paused: z.boolean().default(false),
});

/** A personal webhook: https, as the configured webhook channel's receivers (plain http on loopback only). */
const personalWebhook = z
  .url({ protocol: /^https?$/, error: 'is not an http(s) URL' })
  .refine(
    (url) => url.startsWith('https:') || isLoopbackHost(new URL(url).hostname),
    'must be https:// unless it is a loopback address',
  );

/** A Slack user: their id (`U…`/`W…`), or their Slack e-mail address (looked up by `users.lookupByEmail`). */
const slackUser = z
  .string()
  .trim()
  .regex(
    /^(?:[UW][A-Z0-9]{2,}|[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+)$/u,
    'is not a Slack user id (U0123ABCD) or an e-mail address',
  );

/** The parts of a subscriber a person sets (the CLI, an import, the console, the preference page). */
export const subscriberInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email,
  /** Also POSTed each change, signed as the `subscribers.webhook` channel signs (its key and signer). */
  webhook: personalWebhook.optional(),
  /** Also sent each change as a DM from the `subscribers.slack` app channel's bot. */
  slackUser: slackUser.optional(),
  watch: subscriberWatchSchema.prefault({}),
  prefs: subscriberPrefsSchema.prefault({}),
});

/** A subscriber as stored: the input plus identity, version and the state only shortwatch writes. */
export const subscriberSchema = subscriberInputSchema.extend({
  id: z.string().regex(/^[a-z0-9]{4,32}$/u),
  /** Raised by every change: an edit that read an older version is refused. */
  version: z.number().int().positive(),
  /** Raised to revoke every link handed out so far (a forwarded e-mail, a leaked link). */
  linkGeneration: z.number().int().nonnegative().default(0),
  /** Set by a one-click unsubscribe: nothing is sent to them until they subscribe again. */
  unsubscribedAt: z.string().optional(),
  /** When `prefs.paused` was last turned on (set by the store, whoever paused them); absent while not paused. */
  pausedAt: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A subscriber as a person sets them. */
export type SubscriberInput = z.input<typeof subscriberInputSchema>;
/** A subscriber as stored. */
export type Subscriber = z.output<typeof subscriberSchema>;

/** What every subscriber's channel name starts with: `~` never appears in a configured channel's name. */
export const SUBSCRIBER_CHANNEL_PREFIX = '~';

/** What a subscriber's digest channel name ends with (an id is letters and digits only). */
const DIGEST_SUFFIX = '-digest';
/** What their personal webhook's channel name ends with. */
const WEBHOOK_SUFFIX = '-hook';
/** What their Slack DM's channel name ends with. */
const SLACK_SUFFIX = '-dm';

/** The routes of one subscriber, each an outbox of its own: e-mail at once, the digest, webhook, Slack DM. */
export type SubscriberRoute = 'mail' | 'digest' | 'webhook' | 'slack';

const SUFFIXES: Record<SubscriberRoute, string> = {
  mail: '',
  digest: DIGEST_SUFFIX,
  webhook: WEBHOOK_SUFFIX,
  slack: SLACK_SUFFIX,
};

/** The outbox channel of one of a subscriber's routes. */
export function subscriberRouteChannel(id: string, route: SubscriberRoute): string {
  return `${SUBSCRIBER_CHANNEL_PREFIX}${id}${SUFFIXES[route]}`;
}

/** Every outbox channel a subscriber may have, whatever they want now (what is queued stays theirs). */
export function subscriberChannels(id: string): string[] {
  return (Object.keys(SUFFIXES) as SubscriberRoute[]).map((route) => subscriberRouteChannel(id, route));
}

/** The subscriber and route behind a channel name, or undefined for a configured channel. */
export function subscriberRouteOf(channel: string): { id: string; route: SubscriberRoute } | undefined {
  if (!channel.startsWith(SUBSCRIBER_CHANNEL_PREFIX)) return undefined;
  const rest = channel.slice(SUBSCRIBER_CHANNEL_PREFIX.length);
  for (const route of ['digest', 'webhook', 'slack'] as const) {
    if (rest.endsWith(SUFFIXES[route])) return { id: rest.slice(0, -SUFFIXES[route].length), route };
  }
  return { id: rest, route: 'mail' };
}

/** The outbox channel of one subscriber's immediate messages. */
export function subscriberChannel(id: string): string {
  return subscriberRouteChannel(id, 'mail');
}

/**
 * The channel of one subscriber's digest: its own staging and outbox beside {@link subscriberChannel}'s,
 * so a subscriber in mode `both` gets an event at once and again in the digest (each outbox dedupes on
 * its own).
 */
export function subscriberDigestChannel(id: string): string {
  return subscriberRouteChannel(id, 'digest');
}

/** The subscriber id behind a channel name (any of their routes), or undefined for a configured channel. */
export function subscriberIdOf(channel: string): string | undefined {
  return subscriberRouteOf(channel)?.id;
}

/** True when the subscriber wants a digest (mode `digest` or `both`). */
export function wantsDigest(subscriber: Subscriber): boolean {
  return subscriber.prefs.mode !== 'immediate';
}

/** True when the subscriber wants each change at once (mode `immediate` or `both`). */
export function wantsImmediate(subscriber: Subscriber): boolean {
  return subscriber.prefs.mode !== 'digest';
}

/** True when nothing may be sent to the subscriber now (paused, or unsubscribed). */
export function isSilenced(subscriber: Subscriber): boolean {
  return subscriber.prefs.paused || subscriber.unsubscribedAt !== undefined;
}

/**
 * A personal webhook as pages and the CLI show it: its origin and `/…`, never its path or query, which
 * often carry the receiver's token (as a Slack or Teams webhook's path does).
 */
export function webhookShown(url: string): string {
  if (!URL.canParse(url)) return '';
  const { origin, pathname, search } = new URL(url);
  return pathname === '/' && search === '' ? origin : `${origin}/…`;
}
