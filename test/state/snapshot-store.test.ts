import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/positions/types.js';
import { stateKeys } from '../../src/state/keys.js';
import { isSnapshotCorruptError, SnapshotCorruptError } from '../../src/state/snapshot-corrupt-error.js';
import { SnapshotStore } from '../../src/state/snapshot-store.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { commitSnapshot } from '../helpers/state-writes.js';
import { held, snapshotOf } from '../positions/fixtures.js';

const T1 = '2024-06-03T10:00:00.000Z';
const T2 = '2024-06-03T10:05:00.000Z';
const T3 = '2024-06-03T10:10:00.000Z';

function at(polledAt: string, value = 1): Snapshot {
  return snapshotOf([held('Citadel', value), held('D.E. Shaw & Co., L.P.', 0.6)], polledAt);
}

describe('SnapshotStore', () => {
  let t: TestRedis;
  let store: SnapshotStore;

  beforeEach(async () => {
    t = await createTestRedis('positions-snap');
    store = new SnapshotStore(t.redis, t.prefix);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('round-trips a snapshot under prefix:snapshot:issuerId, a hash of its polledAt and its JSON', async () => {
    expect(await store.get('ISS-1')).toBeNull();
    expect(await commitSnapshot(t.redis, t.prefix, at(T1), null)).toBe(true);
    expect(await store.get('ISS-1')).toEqual(at(T1));
    const stored = await t.redis.hgetall(`${t.prefix}:snapshot:ISS-1`);
    expect(stored.at).toBe(T1);
    expect(JSON.parse(stored.json ?? 'null')).toEqual(at(T1));
  });

  it('keeps a holder name with a lone surrogate or 5,000 characters (no JSON is decoded in Lua)', async () => {
    const odd = snapshotOf([held('Fund \uD800 plc', 1), held('x'.repeat(5_000), 0.7)], T1);
    expect(await commitSnapshot(t.redis, t.prefix, odd, null)).toBe(true);
    expect(await commitSnapshot(t.redis, t.prefix, snapshotOf([held('Fund \uD800 plc', 2)], T2), T1)).toBe(
      true,
    );
    expect(Object.keys((await store.get('ISS-1'))?.positions ?? {})).toHaveLength(1);
  });

  it('deletes a snapshot, and forgets the issuer was baselined (a deliberate reset is not a loss)', async () => {
    await commitSnapshot(t.redis, t.prefix, at(T1), null);
    expect(await t.redis.sismember(stateKeys(t.prefix).baselined, 'ISS-1')).toBe(1);
    await store.delete('ISS-1');
    expect(await store.get('ISS-1')).toBeNull();
    expect(await t.redis.sismember(stateKeys(t.prefix).baselined, 'ISS-1')).toBe(0);
  });

  it.each([
    { name: 'expected null but one is stored', stored: T1, expected: null, next: T2, ok: false },
    { name: 'expected an older polledAt than stored', stored: T2, expected: T1, next: T3, ok: false },
    { name: 'expected a polledAt but none is stored', stored: null, expected: T1, next: T2, ok: false },
    // One clock: a host whose clock is behind still commits the successor of what it read.
    { name: 'next older than the stored one (a host behind)', stored: T2, expected: T2, next: T1, ok: true },
    { name: 'expected matches and next is newer', stored: T1, expected: T1, next: T2, ok: true },
    {
      name: 'expected matches and next is the same instant (replay)',
      stored: T1,
      expected: T1,
      next: T1,
      ok: true,
    },
    { name: 'nothing stored, expected null', stored: null, expected: null, next: T1, ok: true },
  ])('compare-and-set: $name → $ok', async ({ stored, expected, next, ok }) => {
    if (stored !== null) await commitSnapshot(t.redis, t.prefix, at(stored), null);
    expect(await commitSnapshot(t.redis, t.prefix, at(next, 2), expected)).toBe(ok);
    const after = await store.get('ISS-1');
    if (ok) expect(after).toEqual(at(next, 2));
    else expect(after).toEqual(stored === null ? null : at(stored));
  });

  it('of concurrent commits from one previous state, exactly one wins', async () => {
    await commitSnapshot(t.redis, t.prefix, at(T1), null);
    const connections = Array.from({ length: 8 }, () => t.connect());
    const results = await Promise.all(
      connections.map((redis, i) => commitSnapshot(redis, t.prefix, at(T2, i + 1), T1)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(await store.get('ISS-1')).toEqual(at(T2, winner + 1));
  });

  it.each([
    { name: 'invalid JSON', raw: '{"issuerId":' },
    { name: 'schema mismatch', raw: JSON.stringify({ issuerId: 'ISS-1', positions: [] }) },
    { name: 'non-canonical polledAt', raw: JSON.stringify({ ...at(T1), polledAt: '2024-06-03 10:00' }) },
    { name: 'another issuer under this key', raw: JSON.stringify({ ...at(T1), issuerId: 'ISS-2' }) },
  ])('a corrupt value ($name) throws SnapshotCorruptError naming the issuer', async ({ raw }) => {
    await t.redis.hset(`${t.prefix}:snapshot:ISS-1`, { at: T1, json: raw });
    const error = await store.get('ISS-1').catch((e: unknown) => e);
    expect(isSnapshotCorruptError(error)).toBe(true);
    expect(error).toBeInstanceOf(SnapshotCorruptError);
    expect(error).toMatchObject({ issuerId: 'ISS-1', key: `${t.prefix}:snapshot:ISS-1` });
    await expect(store.getMany(['ISS-1'])).rejects.toBeInstanceOf(SnapshotCorruptError);
  });

  it('commit compares polledAt only: a corrupt body is replaced by the next good observation', async () => {
    await t.redis.hset(`${t.prefix}:snapshot:ISS-1`, { at: T1, json: 'not json' });
    expect(await commitSnapshot(t.redis, t.prefix, at(T2), T2)).toBe(false);
    expect(await commitSnapshot(t.redis, t.prefix, at(T2), T1)).toBe(true);
    expect(await store.get('ISS-1')).toEqual(at(T2));
  });

  it('a value of another type under the key (an older layout) reads as corrupt', async () => {
    await t.redis.set(`${t.prefix}:snapshot:ISS-1`, JSON.stringify(at(T1)));
    await expect(store.get('ISS-1')).rejects.toBeInstanceOf(SnapshotCorruptError);
  });

  it('getMany reads many issuers and leaves out those without a snapshot', async () => {
    const other: Snapshot = {
      ...snapshotOf([held('Other', 3)], T2),
      issuerId: 'ISS-2',
      issuerName: 'Other plc',
    };
    await commitSnapshot(t.redis, t.prefix, at(T1), null);
    await commitSnapshot(t.redis, t.prefix, other, null);
    const found = await store.getMany(['ISS-1', 'ISS-9', 'ISS-2']);
    expect([...found.keys()]).toEqual(['ISS-1', 'ISS-2']);
    expect(found.get('ISS-1')).toEqual(at(T1));
    expect(found.get('ISS-2')).toEqual(other);
    expect(await store.getMany([])).toEqual(new Map());
  });
});
