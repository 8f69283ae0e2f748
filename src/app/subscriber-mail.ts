import { mailSender, mailTransport } from '../channels/email/send.js';
import { createSender } from '../channels/registry.js';
import type { SubscriberMail, SubscriberTarget } from '../channels/subscriber-mail.js';
import type { ChannelSender } from '../channels/types.js';
import type { ChannelConfig, Config } from '../config/schema.js';
import { type RecordDeps, recordedSender } from '../delivery/recorded-sender.js';
import {
  type SubscriberTemplates,
  subscriberChannelConfig,
  subscriberSlackConfig,
  subscriberTemplates,
  subscriberWebhookConfig,
} from '../routing/plan-subscribers.js';
import {
  isSilenced,
  type Subscriber,
  type SubscriberRoute,
  subscriberRouteChannel,
} from '../routing/subscriber.js';
import { subscriberLinks } from '../routing/subscriber-links.js';
import { RedisChannelMemory } from '../state/channel-memory.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { Logger } from '../telemetry/logger.js';
import { unlessSecretUnread } from '../unread-secret-parts.js';

/** What subscribers' senders are built with. */
interface SubscriberMailDeps {
  now: () => Date;
  logger: Logger;
  record: RecordDeps;
  /** Where a Slack DM route keeps its memory (the DM conversation, its threads). */
  redis: RedisClient;
  prefix: string;
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

/** The subscriber's route as a channel, or undefined when it is not theirs (no webhook, no template). */
function routeChannel(
  subscriber: Subscriber,
  route: SubscriberRoute,
  templates: SubscriberTemplates,
): ChannelConfig | undefined {
  if (route === 'webhook') return subscriberWebhookConfig(subscriber, templates.webhook, true);
  if (route === 'slack') return subscriberSlackConfig(subscriber, templates.slack, true);
  return subscriberChannelConfig(subscriber, templates.email, true, route === 'digest');
}

/**
 * Subscribers' messages. E-mail goes over one pooled transport built from the template channel
 * (`subscribers.email`): thousands of subscribers share its connections and its rate, each mail carrying
 * their links, signed afresh at each send. A personal webhook is sent as the `subscribers.webhook`
 * channel sends (its signer and key, their URL), a Slack DM by the `subscribers.slack` app's bot. Each
 * route's sender records under its own channel (`~<id>`, `~<id>-digest`, `~<id>-hook`, `~<id>-dm`), so
 * what they received is in the record of sent messages. Undefined without a `subscribers` section or
 * when the e-mail template's secret was not read (a command that sends nothing).
 */
export function subscriberMail(config: Config, deps: SubscriberMailDeps): SubscriberMail | undefined {
  const templates = subscriberTemplates(config);
  if (!templates) return undefined;
  const transport = unlessSecretUnread(
    () => mailTransport(templates.email),
    () => undefined,
  );
  if (!transport) return undefined;
  /** By channel: a subscriber has one per route they use, each recording under its own name. */
  const senders = new Map<string, { key: string; sender: ChannelSender }>();
  const build = (subscriber: Subscriber, channel: ChannelConfig): ChannelSender => {
    if (channel.kind === 'email') {
      const links = () => subscriberLinks(config, subscriber, deps.now());
      return mailSender(transport, channel, { now: deps.now }, { to: [subscriber.email], links });
    }
    const memory = new RedisChannelMemory(deps.redis, deps.prefix, channel.name);
    return createSender(channel, { now: deps.now, memory });
  };
  const gone = (name: string, why: string): SubscriberTarget => ({
    channel: { ...templates.email, name },
    sender: dropping(name, why, deps.logger),
  });
  return {
    targetFor(subscriber, route) {
      const channel = routeChannel(subscriber, route, templates);
      if (!channel) return gone(subscriberRouteChannel(subscriber.id, route), `no ${route} route any more`);
      if (isSilenced(subscriber))
        return {
          channel,
          sender: dropping(channel.name, subscriber.unsubscribedAt ? 'unsubscribed' : 'paused', deps.logger),
        };
      // A sender per version: an edited address, webhook or user, or a revoked link generation builds anew.
      const key = `${subscriber.version}|${subscriber.linkGeneration}`;
      const cached = senders.get(channel.name);
      if (cached?.key === key) return { channel, sender: cached.sender };
      const sender = recordedSender(
        unlessSecretUnread(
          () => build(subscriber, channel),
          () => dropping(channel.name, 'its template channel was not read', deps.logger),
        ),
        channel,
        deps.record,
      );
      senders.set(channel.name, { key, sender });
      return { channel, sender };
    },
    gone: (name) => gone(name, 'subscriber removed'),
    async close() {
      const built = [...senders.values()];
      senders.clear();
      await Promise.all(built.map(({ sender }) => sender.close().catch(() => undefined)));
      transport.close();
    },
  };
}
