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

/**
 * An issuer's memory of the event ids its stream logged (so a replayed commit logs none twice) keeps at
 * most this many times the stream's own cap (`poll.eventsKept`), besides its age ({@link DEDUPE_MEMORY_MS}):
 * every id still in the stream is remembered, and a replay (a commit run again minutes later) repeats only
 * the newest. Twice the default 60 is 120 ids, under the 128 that Redis keeps in a sorted set's compact
 * encoding: about 6 MB at 1,000 issuers, where one key per event for 30 days had no count bound at all.
 */
export const EVENTS_LOGGED_FACTOR = 2;

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

/**
 * Redis' memory for the record's rows over the bytes its bound counts (`retention.deliveryMemory`):
 * typical rows (660 bytes) cost about 1.1 times; rows near 2 KB, one to a stream node and rounded up to
 * the allocator's next size, up to about 1.4 (test/state/delivery-record.test.ts holds it under this).
 */
export const RECORD_MEMORY_FACTOR = 1.5;
