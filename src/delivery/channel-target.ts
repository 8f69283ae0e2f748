import type { ChannelSender } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import { subscriberRouteOf } from '../routing/subscriber.js';
import type { DeliveryParts } from './parts.js';

/** What a deliverer sends through: its channel's config and sender. */
export interface ChannelTarget {
  channel: ChannelConfig;
  sender: ChannelSender;
}

/**
 * The channel a deliverer drains, read afresh at each look: a configured one from the settings in force,
 * or a subscriber's (`~<id>`) from the stored subscriber, so an edit or an unsubscribe applies to the
 * next message already queued. Undefined when there is nothing to send through (a removed channel).
 */
export async function channelTarget(parts: DeliveryParts, name: string): Promise<ChannelTarget | undefined> {
  const { config, senders, subscriberMail } = parts.settings();
  const route = subscriberRouteOf(name);
  if (route === undefined) {
    const channel = config.channels.find((c) => c.name === name);
    const sender = senders.get(name);
    return channel && sender ? { channel, sender } : undefined;
  }
  if (!subscriberMail) return undefined;
  const subscriber = await parts.subscribers.get(route.id);
  if (!subscriber) return subscriberMail.gone(name);
  return subscriberMail.targetFor(subscriber, route.route);
}
