import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lookAtSubscriberOutboxes } from '../../src/delivery/subscriber-outboxes.js';
import { subscriberChannel, subscriberDigestChannel } from '../../src/routing/subscriber.js';
import { stateKeys } from '../../src/state/keys.js';
import { Outbox } from '../../src/state/outbox.js';
import { commitPoll } from '../../src/state/poll-commit.js';
import { SubscriberStore } from '../../src/state/subscriber-store.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';
import { makeEvent } from '../routing/events.js';

const AT = '2026-03-03T10:00:00.000Z';
const SUBSCRIBERS = 2_000;

/** Deliverers that only say what the look asked of them. */
function fakeDeliverers(running: string[] = []) {
  const started: string[] = [];
  const stopped: string[] = [];
  return {
    started,
    stopped,
    running: () => running,
    start: (channel: string) => void started.push(channel),
    stop: async (channel: string) => void stopped.push(channel),
  };
}

describe("the look at subscribers' outboxes", () => {
  let t: TestRedis;
  let outbox: Outbox;
  let ids: string[];

  beforeEach(async () => {
    t = await createTestRedis('subscriber-outboxes');
    outbox = new Outbox(t.redis, t.prefix);
    ids = ['aaaa', 'bbbb', 'cccc'];
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('costs a few commands with 2,000 subscribers, whatever their number; starts only those with work', async () => {
    const store = new SubscriberStore(t.redis, t.prefix);
    const added = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      added.push(
        store.add({ name: `Trader ${i}`, email: `t${i}@desk.example` }, { who: 'test', via: 'cli' }),
      );
    }
    const [a = '', b = '', c = ''] = (await Promise.all(added)).map((s) => s.id);
    const event = makeEvent({ id: 'ea' });
    await commitPoll(t.redis, t.prefix, {
      snapshot: { issuerId: 'ISS-ACME', issuerName: 'Acme', positions: {}, lastUpdated: null, polledAt: AT },
      expectedPolledAt: null,
      logged: [],
      targets: [
        { type: 'outbox', channel: subscriberChannel(a), readyAt: null, events: [event] },
        { type: 'outbox', channel: 'desk', readyAt: null, events: [event] },
        // Staged for a digest: no work for a deliverer until the period is sealed.
        { type: 'digest', channel: subscriberDigestChannel(b), readyAt: null, events: [event] },
      ],
      suppressed: [],
      eventsKept: 10,
    });
    // Quiet hours: queued for later, listed, but nothing to start now.
    const later = Date.now() + 3_600_000;
    await outbox.enqueue(subscriberChannel(c), 'n-1', { type: 'test', channel: 'x', sentAt: AT }, later);
    expect((await outbox.subscriberChannelsWithWork()).sort()).toEqual(
      [subscriberChannel(a), subscriberChannel(c)].sort(),
    );

    const sent = vi.spyOn(t.redis, 'sendCommand');
    const deliverers = fakeDeliverers();
    await lookAtSubscriberOutboxes(outbox, deliverers, Date.now());
    expect(deliverers.started).toEqual([subscriberChannel(a)]);
    // One SMEMBERS, then two reads for each of the two listed channels: never one per subscriber.
    expect(sent.mock.calls.length).toBeGreaterThan(0);
    expect(sent.mock.calls.length).toBeLessThanOrEqual(6);
    sent.mockRestore();

    // The digest period sealed: its channel is listed and its deliverer started.
    await outbox.sealDigest(subscriberDigestChannel(b), {
      batchId: 'dg-1',
      scheduledAt: 1,
      to: AT,
      timezone: 'UTC',
      sendEmpty: false,
      firstFrom: AT,
    });
    const again = fakeDeliverers([subscriberChannel(a)]);
    await lookAtSubscriberOutboxes(outbox, again, Date.now());
    expect(again.started).toEqual([subscriberDigestChannel(b)]);
    expect(again.stopped).toEqual([]);
  });

  it('stops the deliverer of a drained outbox and unlists it; a deferred one stays listed', async () => {
    const [a = '', c = ''] = ids;
    await outbox.enqueue(subscriberChannel(a), 'n-1', { type: 'test', channel: 'x', sentAt: AT });
    await outbox.enqueue(
      subscriberChannel(c),
      'n-2',
      { type: 'test', channel: 'x', sentAt: AT },
      Date.now() + 3_600_000,
    );
    // Drained: the item taken out as a deliverer's send would.
    const box = stateKeys(t.prefix).outbox(subscriberChannel(a));
    await t.redis.multi().zrem(box.pending, 'n-1').hdel(box.items, 'n-1').exec();
    const deliverers = fakeDeliverers([subscriberChannel(a)]);
    await lookAtSubscriberOutboxes(outbox, deliverers, Date.now());
    expect(deliverers.stopped).toEqual([subscriberChannel(a)]);
    expect(deliverers.started).toEqual([]);
    expect(await outbox.subscriberChannelsWithWork()).toEqual([subscriberChannel(c)]);
    // A configured channel's work is never listed.
    await outbox.enqueue('desk', 'n-3', { type: 'test', channel: 'x', sentAt: AT });
    expect(await outbox.subscriberChannelsWithWork()).toEqual([subscriberChannel(c)]);
  });
});
