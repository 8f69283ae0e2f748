async function lookAtSubscriberOutboxes(outbox, deliverers, nowMs) {
  const running = new Set(deliverers.running());
  for (const channel of await outbox.subscriberChannelsWithWork()) {
    if (running.has(channel)) continue;
    if (await outbox.oldestUndelivered(channel, nowMs) !== null) deliverers.start(channel);
    else await outbox.forgetIfIdle(channel);
  }
  for (const channel of running) {
    if (await outbox.oldestUndelivered(channel, nowMs) !== null) continue;
    await deliverers.stop(channel);
    await outbox.forgetIfIdle(channel);
  }
}
export {
  lookAtSubscriberOutboxes
};
