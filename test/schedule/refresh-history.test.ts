import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { learnProfile, seenToday } from '../../src/schedule/index.js';
import { RefreshHistory } from '../../src/schedule/refresh-history.js';
import { stateKeys } from '../../src/state/keys.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

// The refreshes the gate saw, on real Redis, with two instants each: when the gate saw it (which day's
// tokens pay for its sweep) and when it happened (what the refresh profile learns).

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
const TUESDAY = Date.parse('2026-01-06T00:00:00Z');

describe('RefreshHistory', () => {
  let t: TestRedis;
  let history: RefreshHistory;

  beforeEach(async () => {
    t = await createTestRedis('refreshes');
    history = new RefreshHistory(t.redis, t.prefix);
  });

  afterEach(async () => {
    await t.cleanup();
  });

  it('keeps the version found on the first check at its own last_updated: it predates the watch', async () => {
    await history.record('2026-01-02T14:31:00Z', TUESDAY + 9 * HOUR, null);
    const at = Date.parse('2026-01-02T14:31:00Z');
    expect(await history.list()).toEqual([{ seenAt: at, at }]);
  });

  it('keeps a refresh dated by its day only at the time the gate saw it, once', async () => {
    await history.record('2026-01-05T14:30:00Z', TUESDAY - 9 * HOUR, null);
    // Dated by its day only (midnight), seen at 14:32: before, a learned profile put the publication
    // at 00:00, and it did not count as today's.
    const seenAt = TUESDAY + 14 * HOUR + 32 * MINUTE;
    await history.record('2026-01-06', seenAt, seenAt - 2 * MINUTE);
    await history.record('2026-01-06', seenAt + HOUR, seenAt);
    const list = await history.list();
    expect(list.slice(1)).toEqual([{ seenAt, at: seenAt }]);
    expect(
      seenToday(
        list.map((r) => r.seenAt),
        seenAt + MINUTE,
        DAY,
      ),
    ).toBe(1);
    const bin = Math.floor(((seenAt % DAY) / DAY) * 96);
    expect(
      learnProfile(
        list.map((r) => r.at),
        seenAt + MINUTE,
        DAY,
      ).shares[bin],
    ).toBeGreaterThan(0.4);
  });

  it('learns a precise last_updated the check can vouch for, and pays its sweep from the day it was seen', async () => {
    await history.record('2026-01-05T14:30:00Z', TUESDAY - 9 * HOUR, null);
    // Checks every 30 minutes: the refresh at 13:31 seen by the 13:50 check happened at 13:31, so the
    // learned hour is the publication's, not the checks' (which would never move earlier).
    const check = TUESDAY + 13 * HOUR + 50 * MINUTE;
    await history.record('2026-01-06T13:31:00Z', check, check - 30 * MINUTE);
    // A refresh at 23:50 seen at 00:10 happened on Tuesday and is today's (Wednesday's) to sweep.
    const wednesday = TUESDAY + DAY + 10 * MINUTE;
    await history.record('2026-01-06T23:50:00Z', wednesday, wednesday - 30 * MINUTE);
    // A lagging value (before the previous check) happened, as far as shortwatch knows, when seen.
    const later = TUESDAY + DAY + 14 * HOUR;
    await history.record('2026-01-06T09:00:00Z', later, later - 30 * MINUTE);
    expect((await history.list()).slice(1)).toEqual([
      { seenAt: check, at: Date.parse('2026-01-06T13:31:00Z') },
      { seenAt: wednesday, at: Date.parse('2026-01-06T23:50:00Z') },
      { seenAt: later, at: later },
    ]);
    const list = await history.list();
    expect(
      seenToday(
        list.map((r) => r.seenAt),
        wednesday + MINUTE,
        DAY,
      ),
    ).toBe(1);
  });

  it('keeps the newest 200 and forgets the instants of those it drops', async () => {
    for (let i = 0; i < 203; i++) {
      const at = TUESDAY + i * HOUR;
      await history.record(new Date(at).toISOString(), at + MINUTE, at - MINUTE);
    }
    expect(await history.list()).toHaveLength(200);
    expect(await t.redis.hlen(stateKeys(t.prefix).refreshTimes)).toBe(200);
  });
});
