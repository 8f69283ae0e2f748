import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stateKeys } from '../../src/state/keys.js';
import { Lease } from '../../src/state/lease.js';
import { type Inflight, Outbox } from '../../src/state/outbox.js';
import { PARKED_KEPT, SEEN_KEPT } from '../../src/state/retention.js';
import { createTestRedis, type TestRedis } from '../helpers/redis.js';

// Item 6 of issue 20: what the outbox keeps after a message is done (the dedupe memory, the dead letter;
// the record of sent messages: test/state/delivery-record.test.ts) is bounded by count as well as age,
// and each record by size, so a busy channel cannot fill a Redis that runs with `noeviction`.

const notice = { type: 'notice', key: 'k', severity: 'info', title: 't', text: 'x' } as const;

function inflightOf(deliveryId: string, eventIds: string[]): Inflight {
  return { deliveryId, message: notice, eventIds, attempts: 1, partsSent: 0, nextAttemptAt: 0, claimedAt: 0 };
}

describe('what a channel keeps is bounded', () => {
  let t: TestRedis;
  let outbox: Outbox;
  const box = () => stateKeys(t.prefix).outbox('desk');

  beforeEach(async () => {
    t = await createTestRedis('bounds');
    outbox = new Outbox(t.redis, t.prefix);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  /** Claims and ends one message under the channel's lease. */
  async function end(inflight: Inflight, outcome: 'sent' | 'parked'): Promise<void> {
    const lease = new Lease(t.redis, box().lease, 'me', 5_000);
    await lease.take();
    expect(await outbox.claim('desk', 'me', inflight, [])).toBe('claimed');
    expect(await outbox.finish('desk', 'me', inflight, outcome, Date.now())).toBe(true);
  }

  it(`the dead letter keeps its newest ${PARKED_KEPT} messages`, async () => {
    const ids = Array.from({ length: PARKED_KEPT + 5 }, (_, i) => `d-${String(i).padStart(4, '0')}`);
    for (const id of ids) await end(inflightOf(id, [`e-${id}`]), 'parked');
    const parked = (await outbox.parked('desk')).map((p) => p.deliveryId).sort();
    expect(parked).toEqual(ids.slice(5));
    // A requeued message leaves the order too: the next park drops nothing still parked.
    expect(await outbox.requeue('desk', [ids[5] ?? ''])).toBe(1);
    expect(await t.redis.zcard(box().parkedOrder)).toBe(PARKED_KEPT - 1);
  });

  it(`the dedupe memory keeps its newest ${SEEN_KEPT} ids`, async () => {
    const seen = box().seen;
    const old = Date.now() - 60_000;
    for (let from = 0; from < SEEN_KEPT; from += 10_000) {
      const args = Array.from({ length: 10_000 }, (_, i) => [old + from + i, `old-${from + i}`]).flat();
      await t.redis.zadd(seen, ...args);
    }
    expect(await outbox.enqueue('desk', 'n-new', notice)).toBe(true);
    expect(await t.redis.zcard(seen)).toBe(SEEN_KEPT);
    expect(await t.redis.zscore(seen, 'old-0')).toBeNull();
    expect(await t.redis.zscore(seen, 'n-new')).not.toBeNull();
  });
});
