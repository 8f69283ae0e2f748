import { z } from "zod";
import { quietHoursSchema } from "../config/schema/quiet-hours.js";
import { ianaTimezone, percent } from "../config/schema/value-types.js";
import { EVENT_KINDS } from "../positions/types.js";
const DELIVERY_MODES = ["immediate", "digest", "both"];
const eventKind = z.enum(EVENT_KINDS);
const email = z.string().trim().regex(/^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/u, "is not an e-mail address");
const subscriberWatchSchema = z.strictObject({
  /** Issuers by id, ISIN or name, across every source. */
  issuers: z.array(z.string().trim().min(1)).default([]),
  /** Holders by name or entity key, matched as channel filters match them (spelling-insensitive prefix). */
  holders: z.array(z.string().trim().min(1)).default([])
});
const subscriberPrefsSchema = z.strictObject({
  kinds: z.array(eventKind).default([]),
  minValue: percent.optional(),
  minDelta: percent.optional(),
  /** Register aggregates (an issuer's whole short interest) of followed issuers. */
  aggregates: z.boolean().default(true),
  mode: z.enum(DELIVERY_MODES).default("immediate"),
  /** Their digest's cron pattern and time zone, when `mode` is `digest` or `both`. */
  digestSchedule: z.string().min(9).default("30 7 * * 1-5"),
  timezone: ianaTimezone.default("UTC"),
  quietHours: quietHoursSchema.omit({ foldInto: true }).optional(),
  paused: z.boolean().default(false)
});
const subscriberInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email,
  watch: subscriberWatchSchema.prefault({}),
  prefs: subscriberPrefsSchema.prefault({})
});
const subscriberSchema = subscriberInputSchema.extend({
  id: z.string().regex(/^[a-z0-9]{4,32}$/u),
  /** Raised by every change: an edit that read an older version is refused. */
  version: z.number().int().positive(),
  /** Raised to revoke every link handed out so far (a forwarded e-mail, a leaked link). */
  linkGeneration: z.number().int().nonnegative().default(0),
  /** Set by a one-click unsubscribe: nothing is sent to them until they subscribe again. */
  unsubscribedAt: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string()
});
const SUBSCRIBER_CHANNEL_PREFIX = "~";
const DIGEST_SUFFIX = "-digest";
function subscriberChannel(id) {
  return `${SUBSCRIBER_CHANNEL_PREFIX}${id}`;
}
function subscriberDigestChannel(id) {
  return `${SUBSCRIBER_CHANNEL_PREFIX}${id}${DIGEST_SUFFIX}`;
}
function subscriberIdOf(channel) {
  if (!channel.startsWith(SUBSCRIBER_CHANNEL_PREFIX)) return void 0;
  const rest = channel.slice(SUBSCRIBER_CHANNEL_PREFIX.length);
  return rest.endsWith(DIGEST_SUFFIX) ? rest.slice(0, -DIGEST_SUFFIX.length) : rest;
}
function isSubscriberDigestChannel(channel) {
  return subscriberIdOf(channel) !== void 0 && channel.endsWith(DIGEST_SUFFIX);
}
function wantsDigest(subscriber) {
  return subscriber.prefs.mode !== "immediate";
}
function wantsImmediate(subscriber) {
  return subscriber.prefs.mode !== "digest";
}
function isSilenced(subscriber) {
  return subscriber.prefs.paused || subscriber.unsubscribedAt !== void 0;
}
export {
  DELIVERY_MODES,
  SUBSCRIBER_CHANNEL_PREFIX,
  isSilenced,
  isSubscriberDigestChannel,
  subscriberChannel,
  subscriberDigestChannel,
  subscriberIdOf,
  subscriberInputSchema,
  subscriberPrefsSchema,
  subscriberSchema,
  subscriberWatchSchema,
  wantsDigest,
  wantsImmediate
};
