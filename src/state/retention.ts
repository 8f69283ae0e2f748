/**
 * How long the state layer remembers what it has done, in one place. Each figure is documented in
 * docs/architecture.md ("Where state lives in Redis").
 */

const DAY_MS = 24 * 3600 * 1000;

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

/** Entries kept in the stream of sent messages (`shortwatch deliveries`, the console). */
export const DELIVERIES_KEPT = 10_000;
