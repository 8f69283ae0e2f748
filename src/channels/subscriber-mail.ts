import type { ChannelConfig } from '../config/schema.js';
import type { Subscriber } from '../routing/subscriber.js';
import type { ChannelSender } from './types.js';

/** How subscribers' messages go out: one shared transport, a channel and a sender per subscriber. */
export interface SubscriberMail {
  /** The subscriber as an e-mail channel (the template's server and rate, their address); `digest`: their digest's. */
  channelFor(subscriber: Subscriber, digest?: boolean): ChannelConfig;
  /** Their sender, recording each attempt under that channel; one that sends nothing while silenced. */
  senderFor(subscriber: Subscriber, digest?: boolean): ChannelSender;
  /** A removed subscriber's channel: what it still holds is dropped, never sent. */
  gone(channel: string): { channel: ChannelConfig; sender: ChannelSender };
  close(): Promise<void>;
}
