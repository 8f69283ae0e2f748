import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventId } from '../../src/positions/event-id.js';
import type { PositionEvent } from '../../src/positions/types.js';
import { EventLog } from '../../src/state/event-log.js';
import { EventLogCorruptError } from '../../src/state/event-log-corrupt-error.js';
import { commitPoll } from '../../src/state/poll-commit.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

/** A distinct `opened` event of `issuerId`, numbered `n`. */
function event(issuerId: string, n: number): PositionEvent {
  const current = { value: 0.5 + n / 10_000, date: '2024-06-01' };
  const key = `holder${n}`;
  return {
    id: eventId({ issuerId, holderKey: key, from: 'first-sight', kind: 'opened', previous: null, current }),
    kind: 'opened',
    issuer: { id: issuerId, name: `Issuer ${issuerId}` },
    holderKey: key,
    holder: `Holder ${n}`,
    previous: null,
    current,
    final: n % 2 === 0 ? { value: 0.4, date: '2024-05-01' } : undefined,
    delta: current.value,
    thresholdsCrossed: [0.5],
    issuerTotal: { before: 0, after: current.value },
    detectedAt: '2024-06-03T10:00:00.000Z',
  };
}

function range(from: number, count: number, issuerId = 'ISS-1'): PositionEvent[] {
  return Array.from({ length: count }, (_, i) => event(issuerId, from + i));
}

let commits = 0;

/** Logs events the way a poll does: in its commit (each call commits a snapshot of its own). */
async function append(t: TestRedis, events: PositionEvent[], eventsKept = 50): Promise<number> {
  const before = await t.redis.xlen(`${t.prefix}:events`);
  commits += 1;
  await commitPoll(t.redis, t.prefix, {
    snapshot: {
      issuerId: `LOG-${commits}`,
      issuerName: 'log',
      positions: {},
      lastUpdated: null,
      polledAt: '2024-06-03T10:00:00.000Z',
    },
    expectedPolledAt: null,
    logged: events.map((event) => ({ event, routes: [{ channel: 'desk', verdict: 'send', reason: 'r' }] })),
    targets: [],
    suppressed: [],
    eventsKept,
  });
  return (await t.redis.xlen(`${t.prefix}:events`)) - before;
}

describe('EventLog', () => {
  let t: TestRedis;

  beforeEach(async () => {
    t = await createTestRedis('positions-log');
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('keeps each event with where routing sent it', async () => {
    const log = new EventLog(t.redis, t.prefix);
    await append(t, range(1, 1));
    const [logged] = await log.recentLogged({ limit: 1 });
    expect(logged?.routes).toEqual([{ channel: 'desk', verdict: 'send', reason: 'r' }]);
  });

  it('returns events newest first, parsed back intact', async () => {
    const log = new EventLog(t.redis, t.prefix);
    const kept = 50;
    const [a, b, c] = range(1, 3);
    expect(await append(t, [a!, b!], kept)).toBe(2);
    expect(await append(t, [c!], kept)).toBe(1);
    const recent = await log.recent({ issuerId: 'ISS-1', limit: 10 });
    expect(recent).toEqual([c, b, a].map((e) => JSON.parse(JSON.stringify(e))));
    expect((await log.recent({ issuerId: 'ISS-1', limit: 2 })).map((e) => e.id)).toEqual([c!.id, b!.id]);
    expect(await log.recent({ limit: 0 })).toEqual([]);
  });

  it('keeps one stream per issuer and one global stream', async () => {
    const log = new EventLog(t.redis, t.prefix);
    const kept = 50;
    const one = event('ISS-1', 1);
    const two = event('ISS-2', 2);
    const three = event('ISS-1', 3);
    await append(t, [one], kept);
    await append(t, [two, three], kept);
    expect((await log.recent({ issuerId: 'ISS-1', limit: 10 })).map((e) => e.id)).toEqual([three.id, one.id]);
    expect((await log.recent({ issuerId: 'ISS-2', limit: 10 })).map((e) => e.id)).toEqual([two.id]);
    expect((await log.recent({ issuerId: 'ISS-3', limit: 10 })).map((e) => e.id)).toEqual([]);
    expect((await log.recent({ limit: 10 })).map((e) => e.id)).toEqual([three.id, two.id, one.id]);
  });

  it('stores a replayed event id only once, in a batch or across batches', async () => {
    const log = new EventLog(t.redis, t.prefix);
    const kept = 50;
    const events = range(1, 3);
    expect(await append(t, events, kept)).toBe(3);
    expect(await append(t, structuredClone(events), kept)).toBe(0);
    expect(await append(t, [events[0]!, event('ISS-1', 9), event('ISS-1', 9)], kept)).toBe(1);
    expect(await log.recent({ issuerId: 'ISS-1', limit: 100 })).toHaveLength(4);
    expect(await log.recent({ limit: 100 })).toHaveLength(4);
    expect(await t.redis.zscore(`${t.prefix}:events-logged:ISS-1`, events[0]!.id)).not.toBeNull();
  });

  it('remembers at most twice eventsKept logged ids an issuer, the newest, and still drops a replay of those', async () => {
    const kept = 5;
    for (let i = 0; i < 6; i++) await append(t, range(i * 4, 4), kept);
    const remembered = await t.redis.zrange(`${t.prefix}:events-logged:ISS-1`, 0, -1);
    expect(remembered).toHaveLength(2 * kept);
    expect(new Set(remembered)).toEqual(new Set(range(14, 10).map((e) => e.id)));
    expect(await append(t, range(14, 10), kept)).toBe(0);
  });

  it('forgets logged ids older than the dedupe memory (30 days, on Redis time)', async () => {
    const key = `${t.prefix}:events-logged:ISS-1`;
    const [old] = range(1, 1);
    await t.redis.zadd(key, 1_000, old!.id);
    expect(await append(t, range(2, 1))).toBe(1);
    expect(await t.redis.zscore(key, old!.id)).toBeNull();
  });

  it('keeps the streams at maxPerIssuer per issuer and 10x globally, exactly', async () => {
    const max = 3;
    const log = new EventLog(t.redis, t.prefix);
    const kept = max;
    for (let i = 0; i < 4; i++) await append(t, range(i * 100, 100), kept);
    expect(await t.redis.xlen(`${t.prefix}:events:ISS-1`)).toBe(max);
    expect(await t.redis.xlen(`${t.prefix}:events`)).toBe(10 * max);
    expect((await log.recent({ issuerId: 'ISS-1', limit: 1 }))[0]?.holderKey).toBe('holder399');
  });

  it('with a cap of 0 stores nothing', async () => {
    const log = new EventLog(t.redis, t.prefix);
    const kept = 0;
    expect(await append(t, range(1, 2), kept)).toBe(0);
    expect(await log.recent({ limit: 10 })).toEqual([]);
  });

  it.each([
    { name: 'invalid JSON', fields: ['event', '{'] },
    { name: 'schema mismatch', fields: ['event', JSON.stringify({ id: 'x', kind: 'vanished' })] },
    { name: 'missing field', fields: ['other', '{}'] },
  ])('an unreadable entry ($name) throws EventLogCorruptError', async ({ fields }) => {
    const log = new EventLog(t.redis, t.prefix);
    const key = `${t.prefix}:events:ISS-1`;
    const entryId = await t.redis.xadd(key, '*', ...fields);
    const error = await log.recent({ issuerId: 'ISS-1', limit: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventLogCorruptError);
    expect(error).toMatchObject({ key, entryId });
  });
});
