import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectSubscribers } from '../../src/ops/subscriber-status.js';
import { subscriberChannel, subscriberDigestChannel } from '../../src/routing/subscriber.js';
import { stateKeys } from '../../src/state/keys.js';
import { Outbox } from '../../src/state/outbox.js';
import { commitPoll } from '../../src/state/poll-commit.js';
import { SubscriberStore } from '../../src/state/subscriber-store.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { makeEvent } from '../routing/events.js';

const AT = '2026-03-03T10:00:00.000Z';
const actor = { who: 'test', via: 'cli' } as const;

describe("subscribers' status: counts by state and their outboxes summed", () => {
  let t: TestRedis;
  beforeEach(async () => {
    t = await createTestRedis('subscriber-status');
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('counts each state, the outboxes with work, their items by state, parked and staged', async () => {
    const store = new SubscriberStore(t.redis, t.prefix);
    const outbox = new Outbox(t.redis, t.prefix);
    const ann = await store.add({ name: 'Ann', email: 'ann@desk.example' }, actor);
    const bo = await store.add({ name: 'Bo', email: 'bo@desk.example', prefs: { mode: 'digest' } }, actor);
    const cy = await store.add({ name: 'Cy', email: 'cy@desk.example', prefs: { paused: true } }, actor);
    const di = await store.add({ name: 'Di', email: 'di@desk.example' }, actor);
    await store.update(di.id, (s) => ({ ...s, unsubscribedAt: AT }), actor, 'unsubscribed');

    await outbox.enqueue(subscriberChannel(ann.id), 'n-1', { type: 'test', channel: 'x', sentAt: AT });
    await outbox.enqueue(
      subscriberChannel(cy.id),
      'n-2',
      { type: 'test', channel: 'x', sentAt: AT },
      Date.now() + 3_600_000,
    );
    await commitPoll(t.redis, t.prefix, {
      snapshot: { issuerId: 'ISS-ACME', issuerName: 'Acme', positions: {}, lastUpdated: null, polledAt: AT },
      expectedPolledAt: null,
      logged: [],
      targets: [
        { type: 'digest', channel: subscriberDigestChannel(bo.id), readyAt: null, events: [makeEvent()] },
      ],
      suppressed: [],
      eventsKept: 10,
    });
    // Two parked messages in Ann's outbox: the dead letter is counted whether or not the outbox has work.
    await t.redis.hset(
      stateKeys(t.prefix).outbox(subscriberChannel(ann.id)).parked,
      'd-1',
      '{}',
      'd-2',
      '{}',
    );

    const nowMs = Date.now() + 1_000;
    const status = await collectSubscribers({ subscribers: store, outbox }, nowMs);
    expect({ ...status, oldestUndeliveredMs: undefined }).toEqual({
      total: 4,
      active: 2,
      paused: 1,
      unsubscribed: 1,
      digest: 1,
      outboxesWithWork: 2,
      ready: 1,
      held: 1,
      sending: 0,
      parked: 2,
      staged: 1,
      oldestUndeliveredMs: undefined,
    });
    expect(status.oldestUndeliveredMs).toBeGreaterThan(0);
  });
});
