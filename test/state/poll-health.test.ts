import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notFoundBackoffMs } from '../../src/jobs/poll-answer.js';
import { overdueIssuers } from '../../src/jobs/poll-health-report.js';
import { StateEpoch } from '../../src/state/epoch.js';
import { stateKeys } from '../../src/state/keys.js';
import { PollHealth } from '../../src/state/poll-health.js';
import { createTestRedis, deleteByPrefix, type TestRedis } from '../helpers/redis.js';

const at = (iso: string) => new Date(iso);
const T0 = '2026-03-02T09:00:00.000Z';
const T1 = '2026-03-02T09:01:00.000Z';

describe('PollHealth', () => {
  let t: TestRedis;
  let health: PollHealth;

  beforeEach(async () => {
    t = await createTestRedis('poll-health');
    health = new PollHealth(t.redis, t.prefix);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('restartDueClocks: due marks that came back with lost writes start at the rollback, nothing else moves', async () => {
    await health.markDue(['ISS-1', 'ISS-2'], at(T0));
    await health.failed({
      issuerId: 'ISS-2',
      version: null,
      backoffMs: () => 60_000,
      cause: 'server',
      message: 'answered 503',
      at: at(T0),
    });
    expect(await health.restartDueClocks(at(T1))).toBe(2);
    const issuers = await health.all();
    expect(issuers.get('ISS-1')?.dueSince).toBe(T1);
    expect(issuers.get('ISS-2')?.dueSince).toBe(T1);
    // The failure streak is a fact of the polls, not a clock: it stays.
    expect(issuers.get('ISS-2')?.failing?.since).toBe(T0);
    // Overdue two minutes after the old mark, not one minute after the new one.
    const watched = [{ id: 'ISS-1', name: 'One' }];
    expect(overdueIssuers(watched, issuers, Date.parse(T0) + 120_000, 90_000)).toEqual([]);
  });

  it('keeps the first due mark, counts failures by cause, and forgets it all on success', async () => {
    await health.markDue(['ISS-1', 'ISS-2'], at(T0));
    await health.markDue(['ISS-1'], at(T1));
    const backoffMs = (count: number) => count * 60_000;
    const failure = { issuerId: 'ISS-1', version: '2024-06-03T09:00:00Z', backoffMs };
    await health.failed({ ...failure, cause: 'server', message: 'answered 503', at: at(T0) });
    const streak = await health.failed({
      ...failure,
      cause: 'schema',
      message: 'value: expected number',
      at: at(T1),
    });
    expect(streak).toEqual({
      since: T0,
      count: 2,
      cause: 'schema',
      message: 'value: expected number',
      byCause: { server: 1, schema: 1 },
      retryAt: Date.parse(T1) + 120_000,
      version: '2024-06-03T09:00:00Z',
    });
    const all = await health.all();
    expect(all.get('ISS-1')?.dueSince).toBe(T0);
    expect(all.get('ISS-2')).toEqual({ dueSince: T0 });
    expect(await health.succeeded('ISS-1')).toEqual({
      wasFailing: true,
      wasNotFound: false,
      wasLagging: false,
    });
    expect((await health.all()).has('ISS-1')).toBe(false);
  });

  it('404 backoff: the streak grows the wait; clearing it is told apart from nothing to clear', async () => {
    const first = await health.notFound('ISS-1', at(T0), (n) => n * 1_000);
    const second = await health.notFound('ISS-1', at(T1), (n) => n * 1_000);
    expect(first).toEqual({ since: T0, count: 1, retryAt: Date.parse(T0) + 1_000 });
    expect(second).toEqual({ since: T0, count: 2, retryAt: Date.parse(T1) + 2_000 });
    expect(await health.clearNotFound('ISS-1')).toBe(true);
    expect(await health.clearNotFound('ISS-1')).toBe(false);
  });

  it('records an envelope key set once, and a damaged field reads as healthy', async () => {
    expect(await health.sawEnvelopeKeys(['total', 'served_by'], at(T0))).toBe(true);
    expect(await health.sawEnvelopeKeys(['served_by', 'total'], at(T1))).toBe(false);
    expect((await health.read()).envelopes).toEqual([
      { field: 'envelope:served_by,total', keys: ['served_by', 'total'], lastSeen: T1 },
    ]);
    await t.redis.hset(stateKeys(t.prefix).pollHealth, 'failing:ISS-9', '{not json');
    expect((await health.all()).get('ISS-9')).toBeUndefined();
  });
});

describe('overdue issuers and the 404 backoff', () => {
  const watched = [
    { id: 'A', name: 'Alpha' },
    { id: 'B', name: 'Beta' },
    { id: 'C', name: 'Gamma' },
  ];
  it('an issuer is overdue once due longer than the limit; one waiting out a 404 is not', () => {
    const now = Date.parse(T1);
    const health = new Map([
      [
        'A',
        {
          dueSince: T0,
          failing: { since: T0, count: 3, cause: 'server' as const, message: '', byCause: {} },
        },
      ],
      ['B', { dueSince: T0, notFound: { since: T0, count: 1, retryAt: now + 1 } }],
      ['C', { dueSince: '2026-03-02T09:00:59.000Z' }],
    ]);
    expect(overdueIssuers(watched, health, now, 30_000)).toEqual([
      { id: 'A', name: 'Alpha', dueSince: T0, cause: 'server', failures: 3 },
    ]);
    expect(overdueIssuers(watched, health, now, 60_000)).toEqual([]);
  });

  it('asks again at the next sweep first, then doubles, up to a day', () => {
    expect([1, 2, 3, 4].map((n) => notFoundBackoffMs(n, 120_000))).toEqual([
      120_000, 240_000, 480_000, 960_000,
    ]);
    expect(notFoundBackoffMs(30, 120_000)).toBe(24 * 3600 * 1000);
  });
});

describe('StateEpoch', () => {
  let t: TestRedis;
  beforeEach(async () => {
    t = await createTestRedis('epoch');
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('every process agrees on one epoch; after a loss each reports it once', async () => {
    const one = new StateEpoch(t.redis, t.prefix);
    const two = new StateEpoch(t.connect(), t.prefix);
    const [a, b] = await Promise.all([one.check(), two.check()]);
    expect(a.lost).toBe(false);
    expect(b).toEqual(a);
    await deleteByPrefix(t.redis, t.prefix);
    const afterOne = await one.check();
    const afterTwo = await two.check();
    expect(afterOne).toMatchObject({ lost: true, previous: a.epoch });
    expect(afterTwo).toMatchObject({ lost: true, previous: a.epoch, epoch: afterOne.epoch });
    expect((await one.check()).lost).toBe(false);
  });
});
