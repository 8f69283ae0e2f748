import { describe, expect, it } from 'vitest';
import type { ChannelMemory, ChannelSender, Message, SendProgress } from '../../../src/channels/types.js';
import type { PositionEvent } from '../../../src/positions/types.js';
import { RedisChannelMemory } from '../../../src/state/channel-memory.js';
import { ACME, eventsOf, flap, raises } from '../story-fixtures.js';
import { useSlackAppStand } from './stand.js';

const TOKEN = 'xoxb-5151-6161-OutageToken';
const CHANNEL = 'C0DESK04';
const NOW = () => new Date('2024-05-02T07:40:00Z');

const stand = useSlackAppStand(TOKEN, CHANNEL, 'slack-outage', NOW);

/**
 * The channel's Redis memory, whose next `refuse` writes fail as during a Redis restart (ioredis gives a
 * command up after three reconnects): reads and the writes after them go through.
 */
function outageMemory(): ChannelMemory & { refuse: number; refused: number } {
  const memory = new RedisChannelMemory(stand.redis.redis, stand.redis.prefix, 'desk');
  return {
    refuse: 0,
    refused: 0,
    get: (key) => memory.get(key),
    async set(key, value, ttlMs) {
      if (this.refuse > 0) {
        this.refuse -= 1;
        this.refused += 1;
        throw new Error('Reached the max retries per request limit (which is 3).');
      }
      await memory.set(key, value, ttlMs);
    },
  };
}

function sender(memory: ChannelMemory): ChannelSender {
  return stand.sender({ config: { ratePerSecond: 100 }, memory });
}

/** Sends as the deliverer does: a failed send is tried again (up to 3 times) after the parts recorded sent. */
async function deliver(desk: ChannelSender, message: Message): Promise<void> {
  const progress: SendProgress = {
    partsSent: 0,
    deliveryId: 'd-outage',
    onPartSent: async (partsSent) => {
      progress.partsSent = partsSent;
    },
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await desk.send(message, progress);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/*
 * Redis out between Slack's answer and the write it leaves: each case failed the step before
 * (kept-memory.ts), and the step's retry repeated what Slack had taken: a second parent, the same edit
 * again, a second reply.
 */
describe('slack-app: Redis out right after Slack accepted a call', () => {
  it('posts a parent once, and the next change of its issuer replies in its thread', async () => {
    const memory = outageMemory();
    const desk = sender(memory);
    memory.refuse = 3;
    await deliver(desk, { type: 'events', issuer: ACME, events: raises(1) });
    await deliver(desk, { type: 'events', issuer: ACME, events: raises(1, ACME, 4) });
    const [parent, ...others] = stand.slack.parents();
    expect([memory.refused, others]).toEqual([3, []]);
    expect(stand.slack.replies(parent?.ts ?? '')).toHaveLength(1);
  });

  it('edits a told message in place through the outage, and the next correction edits it with the whole run', async () => {
    const [fell, back, close] = flap as [PositionEvent, PositionEvent, PositionEvent];
    const memory = outageMemory();
    const desk = sender(memory);
    await deliver(desk, eventsOf(fell));
    const [told] = stand.slack.posted;
    memory.refuse = 2;
    await deliver(desk, eventsOf(back));
    await deliver(desk, eventsOf(close));
    expect(memory.refused).toBe(2);
    expect([stand.slack.posted.length, told?.edits]).toEqual([1, 2]);
    expect(JSON.stringify(told?.blocks)).toContain('0.52% → 0.47% → 0.51% → off the list');
  });

  it('posts a correction Slack would not edit as one reply', async () => {
    const [fell, ...heldBack] = flap;
    const memory = outageMemory();
    const desk = sender(memory);
    await deliver(desk, eventsOf(fell as PositionEvent));
    const [told] = stand.slack.posted;
    stand.slack.closeEditWindow(told?.ts ?? '');
    memory.refuse = 2;
    await deliver(desk, eventsOf(...heldBack));
    expect(memory.refused).toBe(2);
    expect(stand.slack.replies(told?.ts ?? '')).toHaveLength(1);
  });
});
