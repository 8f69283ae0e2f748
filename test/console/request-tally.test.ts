import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerKeys } from '../../src/state/keys.js';
import { RequestTally } from '../../src/state/request-tally.js';
import { purposeOf } from '../../src/upstream-tally.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

describe('the request tally behind the overview chart', () => {
  let t: TestRedis | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it.each([
    ['polling', 'issuers', 'issuer-list'],
    ['polling', 'active', 'poll'],
    ['polling', 'all', 'history'],
    ['probe', 'issuers', 'probe'],
    ['interactive', 'all', 'interactive'],
  ] as const)('a %s call of %s counts as %s', (role, operation, purpose) => {
    expect(purposeOf(role, operation)).toBe(purpose);
  });

  it('counts calls by purpose in the day window of Redis time, and starts again in the next one', async () => {
    t = await createTestRedis('tally');
    // A test's own root (cleanup deletes it), where the app passes `ledgerRoot(<fingerprint>)`.
    const root = t.prefix;
    const tally = new RequestTally(t.redis, root);
    const key = ledgerKeys(root).requestTally;
    const dayMs = 1_500;
    // Away from a window's end, so that the three counts share one window.
    const [seconds = '0', micros = '0'] = await t.redis.time().then((r) => r.map(String));
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    if (dayMs - (now % dayMs) < 500) await sleep(dayMs - (now % dayMs) + 20);
    await tally.count('poll', dayMs);
    await tally.count('poll', dayMs);
    await tally.count('issuer-list', dayMs);
    const start = Number(await t.redis.hget(key, 'window'));
    expect(start % dayMs).toBe(0);
    // No deployment owns the ledger: the tally expires by itself, after its window's end and a window
    // later at most (by Redis' clock; a little more for a Redis that stalled inside the script).
    const expiresAt = Number(await t.redis.call('PEXPIRETIME', key));
    expect(expiresAt).toBeGreaterThan(start + dayMs);
    expect(expiresAt).toBeLessThan(start + 2 * dayMs + 250);
    expect(await tally.read(start)).toEqual({
      'issuer-list': 1,
      poll: 2,
      history: 0,
      probe: 0,
      interactive: 0,
    });
    // Another window's reader sees nothing of this one.
    expect((await tally.read(start - dayMs)).poll).toBe(0);
    await sleep(dayMs + 50);
    await tally.count('probe', dayMs);
    const next = Number(await t.redis.hget(key, 'window'));
    expect(next).toBeGreaterThan(start);
    expect(await tally.read(next)).toEqual({
      'issuer-list': 0,
      poll: 0,
      history: 0,
      probe: 1,
      interactive: 0,
    });
  });
});
