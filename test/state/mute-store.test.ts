import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInvalidMuteError } from '../../src/routing/mute-error.js';
import { MuteStore } from '../../src/state/mute-store.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { commitSuppressed } from '../helpers/state-writes.js';
import { snapshotOf } from '../positions/fixtures.js';

const T0 = Date.parse('2026-03-03T10:00:00Z');
const HOUR = 3_600_000;

describe('MuteStore', () => {
  let t: TestRedis;
  let clock: number;
  let store: MuteStore;

  beforeEach(async () => {
    t = await createTestRedis('mutes');
    clock = T0;
    store = new MuteStore(t.redis, t.prefix, () => clock);
  });

  afterEach(async () => {
    await t.cleanup();
  });

  it('adds mutes with keys, defaults and PX expiry, and lists them', async () => {
    const holder = await store.add({
      scope: 'holder',
      target: 'Marshall Wace, L.L.P.',
      forMs: HOUR,
      reason: 'rebalancing',
    });
    clock += 1;
    const issuer = await store.add({
      scope: 'issuer',
      target: '  Acme   PLC ',
      channel: 'desk',
      forMs: 2 * HOUR,
      digests: true,
    });
    expect(holder).toEqual({
      scope: 'holder',
      target: 'Marshall Wace, L.L.P.',
      key: 'marshallwacellp',
      until: T0 + HOUR,
      reason: 'rebalancing',
      digests: false,
      createdAt: T0,
    });
    expect(issuer).toMatchObject({
      key: 'acme plc',
      channel: 'desk',
      until: T0 + 1 + 2 * HOUR,
      digests: true,
    });
    expect(await store.list()).toEqual([holder, issuer]);

    // One hash for every mute: a poll reads them with one HGETALL, never a SCAN.
    expect(Object.keys(await t.redis.hgetall(`${t.prefix}:mutes`)).sort()).toEqual([
      'holder:*:marshallwacellp',
      'issuer:desk:acme plc',
    ]);
  });

  it('replaces a mute of the same target spelled differently on the same channel', async () => {
    await store.add({ scope: 'holder', target: 'D. E. Shaw', forMs: HOUR });
    clock += 1;
    await store.add({ scope: 'holder', target: 'D.E. SHAW', forMs: 2 * HOUR });
    clock += 1;
    await store.add({ scope: 'holder', target: 'D.E. SHAW', channel: 'desk', forMs: HOUR });
    const mutes = await store.list();
    expect(mutes.map((m) => [m.target, m.channel, m.until])).toEqual([
      ['D.E. SHAW', undefined, T0 + 1 + 2 * HOUR],
      ['D.E. SHAW', 'desk', T0 + 2 + HOUR],
    ]);
  });

  it('drops a lapsed mute from the hash when it lists', async () => {
    await store.add({ scope: 'issuer', target: 'ISS-1', forMs: 300 });
    await store.add({ scope: 'issuer', target: 'ISS-2', forMs: HOUR });
    clock += 1_000;
    expect((await store.list()).map((m) => m.target)).toEqual(['ISS-2']);
    expect(await t.redis.hexists(`${t.prefix}:mutes`, 'issuer:*:iss-1')).toBe(0);
  });

  it('leaves out mutes past their until by the injected clock', async () => {
    await store.add({ scope: 'issuer', target: 'ISS-1', forMs: HOUR });
    clock = T0 + HOUR;
    expect(await store.list()).toEqual([]);
  });

  it('skips records it cannot read', async () => {
    await t.redis.hset(`${t.prefix}:mutes`, 'holder:*:junk', '{not json');
    await t.redis.hset(`${t.prefix}:mutes`, 'holder:*:wrong', JSON.stringify({ scope: 'holder' }));
    const good = await store.add({ scope: 'holder', target: 'Citadel', forMs: HOUR });
    expect(await store.list()).toEqual([good]);
  });

  it('removes by scope, any spelling of the target, and channel', async () => {
    await store.add({ scope: 'holder', target: 'Citadel Advisors', channel: 'desk', forMs: HOUR });
    await store.add({ scope: 'holder', target: 'Citadel Advisors', forMs: HOUR });
    expect(await store.remove('holder', 'CITADEL ADVISORS', 'other')).toBe(false);
    expect(await store.remove('issuer', 'Citadel Advisors', 'desk')).toBe(false);
    expect(await store.remove('holder', 'citadel-advisors', 'desk')).toBe(true);
    expect((await store.list()).map((m) => m.channel)).toEqual([undefined]);
    expect(await store.remove('holder', 'Citadel Advisors')).toBe(true);
    expect(await store.list()).toEqual([]);
  });

  it('rejects a target without letters or digits and a non-positive duration', async () => {
    await expect(store.add({ scope: 'holder', target: '...', forMs: HOUR })).rejects.toSatisfy(
      isInvalidMuteError,
    );
    await expect(store.add({ scope: 'issuer', target: 'ISS-1', forMs: 0 })).rejects.toSatisfy(
      isInvalidMuteError,
    );
    await expect(store.add({ scope: 'issuer', target: 'ISS-1', forMs: 1.5 })).rejects.toSatisfy(
      isInvalidMuteError,
    );
    expect(await store.list()).toEqual([]);
  });

  it('counts suppressed events per channel', async () => {
    expect(await store.suppressedCounts()).toEqual({});
    // The daemon counts them in the poll's commit, one count per channel and poll.
    const commits: Array<[string, Array<{ channel: string; count: number }>]> = [
      ['ISS-1', [{ channel: 'desk', count: 2 }]],
      [
        'ISS-2',
        [
          { channel: 'desk', count: 3 },
          { channel: 'night', count: 1 },
        ],
      ],
    ];
    for (const [issuerId, suppressed] of commits) {
      await commitSuppressed(t.redis, t.prefix, { ...snapshotOf([]), issuerId }, suppressed);
    }
    expect(await store.suppressedCounts()).toEqual({ desk: 5, night: 1 });
  });
});
