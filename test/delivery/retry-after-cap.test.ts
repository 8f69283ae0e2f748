import { describe, expect, it } from 'vitest';
import { describeCap, rateLimitPause } from '../../src/delivery/retry-after-cap.js';
import { channelStall, describeStall } from '../../src/delivery/stall.js';

const HOUR = 3_600_000;

describe('rateLimitPause', () => {
  it.each([
    ['a Retry-After under the cap is kept', 30_000, { waitMs: 30_000, cappedFromMs: null }],
    ['exactly the cap is kept', HOUR, { waitMs: HOUR, cappedFromMs: null }],
    ['a year is cut to the cap', 31_536_000_000, { waitMs: HOUR, cappedFromMs: 31_536_000_000 }],
    ['none stated waits a second', undefined, { waitMs: 1_000, cappedFromMs: null }],
  ] as const)('%s', (_, retryAfterMs, expected) => {
    expect(rateLimitPause(retryAfterMs, HOUR)).toEqual(expected);
  });

  it('tells the cap in seconds asked and the cap as a duration', () => {
    expect(describeCap(31_536_000_000, HOUR)).toBe('Retry-After 31536000 s capped to 1h');
  });
});

describe('channelStall', () => {
  const now = 1_000_000;
  it.each([
    ['nothing undelivered', null, { ageMs: null, stalled: false }],
    ['younger than stalledAfter', now - 60_000, { ageMs: 60_000, stalled: false }],
    ['exactly stalledAfter is not yet stalled', now - 900_000, { ageMs: 900_000, stalled: false }],
    ['older than stalledAfter', now - 900_001, { ageMs: 900_001, stalled: true }],
    ['a clock a little ahead reads as age 0', now + 500, { ageMs: 0, stalled: false }],
  ] as const)('%s', (_, oldestAt, expected) => {
    expect(channelStall(oldestAt, now, 900_000)).toEqual(expected);
  });

  it('names the channel, the age and the bound', () => {
    expect(describeStall('desk', 962_000, 900_000)).toBe(
      'channel desk stalled: oldest undelivered message waiting 16m 2s (delivery.stalledAfter 15m)',
    );
  });
});
