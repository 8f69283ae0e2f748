import type { Outbox } from '../state/outbox.js';

/** The deliverers of subscribers' channels in one process, as a look at their outboxes sees them. */
export interface SubscriberDeliverers {
  /** Subscribers' channels with a deliverer in this process. */
  running(): string[];
  start(channel: string): void;
  stop(channel: string): Promise<void>;
}

/** What a look reads and writes of the outboxes. */
export type OutboxesLooked = Pick<
  Outbox,
  'subscriberChannelsWithWork' | 'oldestUndelivered' | 'forgetIfIdle'
>;

/**
 * Starts a deliverer for each subscriber's channel listed with work and ready to send, stops those whose
 * outbox has nothing ready, and unlists channels found empty. It reads the list the queueing scripts keep
 * (state/keys.ts `subscriberOutboxesWithWork`), never every subscriber: with 2,000 subscribers and three
 * with mail, a look is a handful of commands, not thousands of round trips.
 */
export async function lookAtSubscriberOutboxes(
  outbox: OutboxesLooked,
  deliverers: SubscriberDeliverers,
  nowMs: number,
): Promise<void> {
  const running = new Set(deliverers.running());
  for (const channel of await outbox.subscriberChannelsWithWork()) {
    if (running.has(channel)) continue;
    if ((await outbox.oldestUndelivered(channel, nowMs)) !== null) deliverers.start(channel);
    // Nothing ready: deferred by quiet hours (kept listed), or drained elsewhere (unlisted).
    else await outbox.forgetIfIdle(channel);
  }
  for (const channel of running) {
    if ((await outbox.oldestUndelivered(channel, nowMs)) !== null) continue;
    await deliverers.stop(channel);
    await outbox.forgetIfIdle(channel);
  }
}
