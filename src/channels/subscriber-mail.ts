import type { ChannelConfig } from '../config/schema.js';
import type { Subscriber, SubscriberRoute } from '../routing/subscriber.js';
import type { ChannelSender } from './types.js';

/** One route's channel and sender for a subscriber. */
export interface SubscriberTarget {
  channel: ChannelConfig;
  sender: ChannelSender;
}

/**
 * How subscribers' messages go out: one shared e-mail transport, and the configured webhook and Slack app
 * channels their personal routes borrow; a channel and a sender per subscriber and route.
 */
export interface SubscriberMail {
  /**
   * The subscriber's route as a channel (e-mail at once, their digest, their webhook, their Slack DM) and
   * its sender, recording each attempt under that channel; one that sends nothing while they are silenced
   * or when the route is no longer theirs (a webhook removed, no `subscribers.webhook` any more).
   */
  targetFor(subscriber: Subscriber, route: SubscriberRoute): SubscriberTarget;
  /** A removed subscriber's channel: what it still holds is dropped, never sent. */
  gone(channel: string): SubscriberTarget;
  close(): Promise<void>;
}
