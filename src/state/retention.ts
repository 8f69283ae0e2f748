import { DAY_MS } from '../time/units.js';
/**
 * How long the state layer remembers what it has done, in one place. Each figure is documented in
 * docs/architecture.md ("Where state lives in Redis").
 */

/**
 * How long a channel remembers an event id it accepted: a second copy of the same event (the same issuer,
 * holder, kind, before and after) within this time is dropped. It outlives every retry and backoff of a
 * delivery (hours at most) and matches the event log's own memory, and depends on no BullMQ retention.
 */
export const DEDUPE_MEMORY_MS = 30 * DAY_MS;

/** How long the event log remembers an appended id, so a replay never logs an event twice. */
export const EVENT_SEEN_TTL_SECONDS = DEDUPE_MEMORY_MS / 1000;

/** The global event stream keeps this many times the per-issuer cap. */
export const GLOBAL_EVENTS_FACTOR = 10;

/**
 * Event ids a row of the record of sent messages lists (it also counts them all): a coalesced message or
 * a digest may carry thousands, and 250,000 rows of 2,000 ids each would hold 17 GB. With this cap the
 * largest row's ids take under 2 KB; a typical message lists one to three (docs/operations.md).
 */
export const DELIVERY_IDS_LOGGED = 50;

/**
 * Distinct disclosure dates and first-seen times a row of the record keeps of its events (issue 34: the
 * export carries both): a message from one read has one first-seen time and a few dates, so ten keep a
 * row's size bounded (about 450 bytes of JSON at most) without losing what a message usually carries.
 */
export const DELIVERY_TIMES_LOGGED = 10;

/**
 * Ids a channel's dedupe memory holds at most, besides its age ({@link DEDUPE_MEMORY_MS}): the oldest go
 * first. Dedupe guards against replays (a poll or commit run again within minutes or hours), far fewer
 * than this; at about 100 bytes an id the memory stays under 10 MB a channel.
 */
export const SEEN_KEPT = 100_000;

/**
 * Parked messages a channel's dead letter keeps: the newest. One message is at most one coalesced
 * message of the channel (the footprint benchmark prints the largest seen), so the dead letter is bounded
 * in bytes by this count times that.
 */
export const PARKED_KEPT = 100;
