import { mailSender, mailTransport } from "../channels/email/send.js";
import { recordedSender } from "../delivery/recorded-sender.js";
import { subscriberChannelConfig } from "../routing/plan-subscribers.js";
import { isSilenced } from "../routing/subscriber.js";
import { subscriberLinks } from "../routing/subscriber-links.js";
import { unlessSecretUnread } from "../unread-secret-parts.js";
function dropping(channel, why, logger) {
  return {
    async send(message, progress) {
      logger.info({ channel, deliveryId: progress?.deliveryId, type: message.type }, `not sent: ${why}`);
    },
    coalesce: (groups) => groups.length,
    verify: async () => `${channel}: ${why}`,
    close: async () => void 0
  };
}
function subscriberMail(config, deps) {
  const settings = config.subscribers;
  const template = config.channels.find(
    (c) => c.name === settings?.email && c.kind === "email"
  );
  if (!settings || !template) return void 0;
  const transport = unlessSecretUnread(
    () => mailTransport(template),
    () => void 0
  );
  if (!transport) return void 0;
  const senders = /* @__PURE__ */ new Map();
  const channelFor = (subscriber, digest = false) => subscriberChannelConfig(subscriber, template, true, digest);
  return {
    channelFor,
    senderFor(subscriber, digest = false) {
      const channel = channelFor(subscriber, digest);
      if (isSilenced(subscriber)) {
        return dropping(channel.name, subscriber.unsubscribedAt ? "unsubscribed" : "paused", deps.logger);
      }
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
      return { channel: { ...template, name }, sender: dropping(name, "subscriber removed", deps.logger) };
    },
    async close() {
      senders.clear();
      transport.close();
    }
  };
}
export {
  subscriberMail
};
