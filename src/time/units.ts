// The one set of duration constants, usable from every layer (src/time is the bottom layer with config).
// A day here is a UTC day of 24 hours: zoned days with a DST change are routing/zoned-time.ts's concern.

/** Milliseconds in a second. */
export const SECOND_MS = 1_000;
/** Milliseconds in a minute. */
export const MINUTE_MS = 60 * SECOND_MS;
/** Milliseconds in an hour. */
export const HOUR_MS = 60 * MINUTE_MS;
/** Milliseconds in a (UTC) day. */
export const DAY_MS = 24 * HOUR_MS;
