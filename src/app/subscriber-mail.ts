import { mailSender, mailTransport } from '../channels/email/send.js';
import type { SubscriberMail } from '../channels/subscriber-mail.js';
import type { ChannelSender } from '../channels/types.js';
import type { ChannelConfig, Config } from '../config/schema.js';
import { type RecordDeps, recordedSender } from '../delivery/recorded-sender.js';
import { subscriberChannelConfig } from '../routing/plan-subscribers.js';
import { isSilenced, type Subscriber } from '../routing/subscriber.js';
import { subscriberLinks } from '../routing/subscriber-links.js';
import type { Logger } from '../telemetry/logger.js';
import { unlessSecretUnread } from '../unread-secret-parts.js';

type EmailChannel = Extract<ChannelConfig, { kind: 'email' }>;

/** What subscribers' senders are built with. */
interface SubscriberMailDeps {
  now: () => Date;
  logger: Logger;
  record: RecordDeps;
}

/** A sender that sends nothing: what is queued for a silenced or removed subscriber is dropped. */
function dropping(channel: string, why: string, logger: Logger): ChannelSender {
  return {
    async send(message, progress) {
      logger.info({ channel, deliveryId: progress?.deliveryId, type: message.type }, `not sent: ${why}`);
    },
    coalesce: (groups) => groups.length,
    verify: async () => `${channel}: ${why}`,
    close: async () => undefined,
  };
}

/**
 * Subscribers' e-mail over one pooled transport built from the template channel (`subscribers.email`):
 * thousands of subscribers share its connections and its rate. Each subscriber's sender records under
 * their own channel (`~<id>`), so what they received is in the record of sent messages, and carries their
 * links, signed afresh at each send. Undefined without a `subscribers` section or when the template's
 * secret was not read (a command that sends nothing).
 */
export function subscriberMail(config: Config, deps: SubscriberMailDeps): SubscriberMail | undefined {
  const settings = config.subscribers;
  const template = config.channels.find(
    (c): c is EmailChannel => c.name === settings?.email && c.kind === 'email',
  );
  if (!settings || !template) return undefined;
  const transport = unlessSecretUnread(
    () => mailTransport(template),
    () => undefined,
  );
  if (!transport) return undefined;
  /** By channel: a subscriber in mode `both` has two, each recording under its own name. */
  const senders = new Map<string, { key: string; sender: ChannelSender }>();
  const channelFor = (subscriber: Subscriber, digest = false) =>
    subscriberChannelConfig(subscriber, template, true, digest);
  return {
    channelFor,
    senderFor(subscriber, digest = false) {
      const channel = channelFor(subscriber, digest);
      if (isSilenced(subscriber)) {
        return dropping(channel.name, subscriber.unsubscribedAt ? 'unsubscribed' : 'paused', deps.logger);
      }
      // A sender per version: an edited address or a revoked link generation builds a new one.
      const key = `${subscriber.version}|${subscriber.linkGeneration}`;
      const cached = senders.get(channel.name);
      if (cached?.key === key) return cached.sender;
      const links = () => subscriberLinks(config, subscriber, deps.now());
      const mail = mailSender(transport, channel, { now: deps.now }, { to: [subscriber.email], links });
      const sender = recordedSender(mail, channel, deps.record);
      senders.set(channel.name, { key, sender });
      return sender;
    },
    gone(name) {
      return { channel: { ...template, name }, sender: dropping(name, 'subscriber removed', deps.logger) };
    },
    async close() {
      senders.clear();
      transport.close();
    },
  };
}
