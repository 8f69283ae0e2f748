import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/state/keys.js';
import { describeRollback, judgeReading, type MarkReading, StateMark } from '../../src/state/state-mark.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

const at = (seq: number, epoch = 'e1'): MarkReading => ({ seq, at: 1_700_000_000_000 + seq * 100, epoch });

describe('judgeReading: a lower mark on the same epoch is a rollback', () => {
  const cases: Array<{ name: string; high: MarkReading | undefined; reading: MarkReading; lost?: number }> = [
    { name: 'the first reading', high: undefined, reading: at(5) },
    { name: 'the mark moved on', high: at(5), reading: at(9) },
    { name: 'the same mark', high: at(5), reading: at(5) },
    { name: 'lower on the same epoch', high: at(9), reading: at(4), lost: 5 },
    { name: 'lower on another epoch (state-lost tells it)', high: at(9), reading: at(1, 'e2') },
    { name: 'no epoch yet (the state flushed)', high: at(9), reading: at(0, '') },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const judged = judgeReading(c.high, c.reading);
      expect(judged.high).toEqual(c.reading);
      const lost = judged.rollback ? judged.rollback.seen.seq - judged.rollback.found.seq : undefined;
      expect(lost).toBe(c.lost);
    });
  }

  it('says how far: writes lost and the time they span', () => {
    const rollback = judgeReading(at(9), at(4)).rollback;
    if (!rollback) throw new Error('no rollback');
    expect(describeRollback(rollback)).toBe(
      "5 writes of the high-water mark (9 seen, 4 now), the last 0.5 s before 2023-11-14T22:13:20.900Z (Redis' time)",
    );
  });
});

describe('StateMark on Redis', () => {
  let t: TestRedis;
  beforeAll(async () => {
    t = await createTestRedis('mark');
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('a raise moves the mark on; a mark written back lower is found by the connection that saw it higher', async () => {
    const keys = stateKeys(t.prefix);
    await t.redis.set(keys.epoch, 'epoch-1');
    const mark = new StateMark(t.redis, t.prefix);
    expect(await mark.check()).toBeUndefined();
    expect(await mark.raise(t.redis)).toBeUndefined();
    expect(await mark.raise(t.redis)).toBeUndefined();
    expect(await t.redis.hget(keys.stateMark, 'seq')).toBe('2');
    expect(await mark.check()).toBeUndefined();
    // What a failover to a replica that missed the last raise leaves: the mark one lower.
    await t.redis.hset(keys.stateMark, 'seq', '1');
    const rollback = await mark.check();
    expect(rollback?.seen.seq).toBe(2);
    expect(rollback?.found.seq).toBe(1);
    // Told once, then on from there.
    expect(await mark.check()).toBeUndefined();
  });
});
