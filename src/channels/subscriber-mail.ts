import type { ChannelConfig } from '../config/schema.js';
import type { Subscriber } from '../routing/subscriber.js';
import type { ChannelSender } from './types.js';

/** How subscribers' messages go out: one shared transport, a channel and a sender per subscriber. */
export interface SubscriberMail {
  /** The subscriber as an e-mail channel (the template's server and rate, their address). */
  channelFor(subscriber: Subscriber): ChannelConfig;
  /** Their sender, recording each attempt under their channel; one that sends nothing while silenced. */
  senderFor(subscriber: Subscriber): ChannelSender;
  /** A removed subscriber's channel: what it still holds is dropped, never sent. */
  gone(channel: string): { channel: ChannelConfig; sender: ChannelSender };
  close(): Promise<void>;
}
