import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PositionEvent } from '../../src/positions/types.js';
import { stateKeys } from '../../src/state/keys.js';
import { Lease } from '../../src/state/lease.js';
import { type Inflight, Outbox } from '../../src/state/outbox.js';
import { commitPoll, type PollCommit } from '../../src/state/poll-commit.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { makeEvent } from '../routing/events.js';

const T1 = '2026-03-03T10:00:00.000Z';
const T2 = '2026-03-03T10:05:00.000Z';

function commitOf(events: PositionEvent[], polledAt: string, expected: string | null): PollCommit {
  return {
    snapshot: { issuerId: 'ISS-ACME', issuerName: 'Acme', positions: {}, lastUpdated: null, polledAt },
    expectedPolledAt: expected,
    logged: events.map((event) => ({ event, routes: [] })),
    targets: [{ type: 'outbox', channel: 'desk', readyAt: null, events }],
    suppressed: [],
    eventsKept: 10,
  };
}

function inflightOf(ids: string[]): Inflight {
  return {
    deliveryId: `d-${ids.join('-')}`,
    message: { type: 'notice', key: 'k', severity: 'info', title: 't', text: 'x' },
    eventIds: ids,
    attempts: 0,
    partsSent: 0,
    nextAttemptAt: 0,
    claimedAt: 0,
  };
}

describe('the outbox and the poll commit', () => {
  let t: TestRedis;
  let outbox: Outbox;

  beforeEach(async () => {
    t = await createTestRedis('outbox');
    outbox = new Outbox(t.redis, t.prefix);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('a replayed commit writes nothing; an event id is accepted once per channel even in a new grouping', async () => {
    const a = makeEvent({ id: 'ea' });
    const b = makeEvent({ id: 'eb', holder: 'Other Fund' });
    expect(await commitPoll(t.redis, t.prefix, commitOf([a], T1, null))).toBe(true);
    // The same poll replayed after its commit: the snapshot moved on, nothing is written.
    expect(await commitPoll(t.redis, t.prefix, commitOf([a], T1, null))).toBe(false);
    // A later poll that sees `a` again beside a new `b` (a regrouping) adds only `b`.
    expect(await commitPoll(t.redis, t.prefix, commitOf([a, b], T2, T1))).toBe(true);
    const { items } = await outbox.ready('desk', Date.now() + 1_000, 100);
    expect(items.map((i) => i.id)).toEqual(['ea', 'eb']);
  });

  it('only the lease holder claims and finishes; a crash after the claim leaves the message in flight', async () => {
    await commitPoll(t.redis, t.prefix, commitOf([makeEvent({ id: 'ea' })], T1, null));
    const keys = stateKeys(t.prefix).outbox('desk');
    const mine = new Lease(t.redis, keys.lease, 'me', 5_000);
    const theirs = new Lease(t.redis, keys.lease, 'them', 5_000);
    expect(await mine.take()).toBe(true);
    expect(await theirs.take()).toBe(false);
    expect(await outbox.claim('desk', 'them', inflightOf(['ea']), ['ea'])).toBe('lease-lost');
    expect(await outbox.claim('desk', 'me', inflightOf(['ea']), ['ea'])).toBe('claimed');
    expect(await outbox.claim('desk', 'me', inflightOf(['ea']), ['ea'])).toBe('busy');
    expect((await outbox.ready('desk', Date.now() + 1_000, 10)).items).toEqual([]);
    // The process "dies": the next holder finds the same message, with the same delivery id.
    await mine.release();
    expect(await theirs.take()).toBe(true);
    expect((await outbox.inflight('desk'))?.deliveryId).toBe('d-ea');
    expect(await outbox.finish('desk', 'me', inflightOf(['ea']), 'sent', 1)).toBe(false);
    expect(await outbox.finish('desk', 'them', inflightOf(['ea']), 'sent', 1)).toBe(true);
    expect(await outbox.inflight('desk')).toBeNull();
  });

  it("finishing a sent message keeps the channel's send state (its rate and a 429 pause)", async () => {
    await commitPoll(t.redis, t.prefix, commitOf([makeEvent({ id: 'ea' })], T1, null));
    await new Lease(t.redis, stateKeys(t.prefix).outbox('desk').lease, 'me', 5_000).take();
    await outbox.setSendState('desk', { pausedUntil: 123, lastSentAt: 456 });
    await outbox.claim('desk', 'me', inflightOf(['ea']), ['ea']);
    expect(await outbox.finish('desk', 'me', inflightOf(['ea']), 'sent', 1)).toBe(true);
    expect(await outbox.sendState('desk')).toMatchObject({ pausedUntil: 123, lastSentAt: 456 });
  });

  it('a parked message is kept, listed, and requeued at the front under its own id', async () => {
    await commitPoll(
      t.redis,
      t.prefix,
      commitOf([makeEvent({ id: 'ea' }), makeEvent({ id: 'eb', holder: 'B' })], T1, null),
    );
    const lease = new Lease(t.redis, stateKeys(t.prefix).outbox('desk').lease, 'me', 5_000);
    await lease.take();
    await outbox.claim('desk', 'me', inflightOf(['ea']), ['ea']);
    expect(
      await outbox.finish('desk', 'me', { ...inflightOf(['ea']), lastError: 'no_service' }, 'parked', 5),
    ).toBe(true);
    expect((await outbox.parked('desk')).map((p) => [p.deliveryId, p.lastError])).toEqual([
      ['d-ea', 'no_service'],
    ]);
    expect(await outbox.requeue('desk', ['d-nope'])).toBe(0);
    expect(await outbox.requeue('desk')).toBe(1);
    const { items } = await outbox.ready('desk', Date.now() + 1_000, 10);
    expect(items.map((i) => i.id)).toEqual(['d-ea', 'eb']);
    expect(await outbox.parked('desk')).toEqual([]);
  });

  it('a digest period is sealed in one step; the next period starts empty', async () => {
    const commit = commitOf([makeEvent({ id: 'ea' })], T1, null);
    await commitPoll(t.redis, t.prefix, {
      ...commit,
      targets: [{ ...commit.targets[0]!, type: 'digest', channel: 'morning' }],
    });
    expect(await outbox.stagedCount('morning')).toBe(1);
    const seal = {
      batchId: 'dg-1',
      scheduledAt: 1,
      to: T2,
      timezone: 'UTC',
      sendEmpty: false,
      firstFrom: T1,
    };
    expect(await outbox.sealDigest('morning', seal)).toBe(1);
    expect(await outbox.stagedCount('morning')).toBe(0);
    expect((await outbox.digestEvents('morning', 'dg-1')).map((e) => e.id)).toEqual(['ea']);
    expect(await outbox.sealDigest('morning', { ...seal, batchId: 'dg-2', scheduledAt: 2 })).toBe(-1);
    const { items } = await outbox.ready('morning', Date.now() + 1_000, 10);
    expect(items).toEqual([
      { id: 'dg-1', kind: 'digest', batchId: 'dg-1', period: { from: T1, to: T2, timezone: 'UTC' } },
    ]);
  });

  it('a period is sealed once: a stalled re-run or a retry of its job seals nothing more (finding 8)', async () => {
    const stage = async (id: string) => {
      const commit = commitOf([makeEvent({ id })], id === 'ea' ? T1 : T2, id === 'ea' ? null : T1);
      await commitPoll(t.redis, t.prefix, {
        ...commit,
        targets: [{ ...commit.targets[0]!, type: 'digest', channel: 'morning' }],
      });
    };
    await stage('ea');
    const seal = {
      batchId: 'dg-p1',
      scheduledAt: 1_000,
      to: T2,
      timezone: 'UTC',
      sendEmpty: true,
      firstFrom: T1,
    };
    expect(await outbox.sealDigest('morning', seal)).toBe(1);
    // An event of the next period arrives, then the first period's job runs again (stalled, or retried
    // after an error that hid its success): nothing is sealed, empty or not, and the event stays staged.
    await stage('eb');
    expect(await outbox.sealDigest('morning', { ...seal, to: '2026-03-03T10:06:00.000Z' })).toBe(-2);
    // A job of an earlier period that runs late seals nothing either.
    expect(await outbox.sealDigest('morning', { ...seal, batchId: 'dg-p0', scheduledAt: 500 })).toBe(-2);
    expect(await outbox.stagedCount('morning')).toBe(1);
    const { items } = await outbox.ready('morning', Date.now() + 1_000, 10);
    expect(items.map((i) => i.id)).toEqual(['dg-p1']);
    expect((await outbox.digestEvents('morning', 'dg-p1')).map((e) => e.id)).toEqual(['ea']);
    // The next period seals what was staged since.
    expect(await outbox.sealDigest('morning', { ...seal, batchId: 'dg-p2', scheduledAt: 2_000 })).toBe(1);
  });

  it('a deferred item waits for its time', async () => {
    const commit = commitOf([makeEvent({ id: 'ea' })], T1, null);
    const later = Date.now() + 60_000;
    await commitPoll(t.redis, t.prefix, { ...commit, targets: [{ ...commit.targets[0]!, readyAt: later }] });
    const now = await outbox.ready('desk', Date.now(), 10);
    expect(now.items).toEqual([]);
    expect(now.nextReadyAt).toBe(later);
    expect(await outbox.depth('desk', Date.now())).toEqual({ waiting: 1, ready: 0, inflight: 0, parked: 0 });
  });
});
