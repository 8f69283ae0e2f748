import { isSubscriberDigestChannel, subscriberIdOf } from "../routing/subscriber.js";
async function channelTarget(parts, name) {
  const { config, senders, subscriberMail } = parts.settings();
  const id = subscriberIdOf(name);
  if (id === void 0) {
    const channel = config.channels.find((c) => c.name === name);
    const sender = senders.get(name);
    return channel && sender ? { channel, sender } : void 0;
  }
  if (!subscriberMail) return void 0;
  const subscriber = await parts.subscribers.get(id);
  if (!subscriber) return subscriberMail.gone(name);
  const digest = isSubscriberDigestChannel(name);
  return {
    channel: subscriberMail.channelFor(subscriber, digest),
    sender: subscriberMail.senderFor(subscriber, digest)
  };
}
export {
  channelTarget
};
