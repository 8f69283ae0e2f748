import {
  isSilenced,
  subscriberChannel,
  subscriberDigestChannel,
  wantsDigest
} from "../routing/subscriber.js";
async function collectSubscribers(stores, nowMs) {
  const all = await stores.subscribers.list();
  const digest = all.filter(wantsDigest);
  const counts = await stores.outbox.parkedAndStaged(
    all.map((s) => subscriberChannel(s.id)).concat(digest.map((s) => subscriberDigestChannel(s.id)))
  );
  const withWork = await stores.outbox.subscriberChannelsWithWork();
  const status = {
    total: all.length,
    active: all.filter((s) => !isSilenced(s)).length,
    paused: all.filter((s) => s.prefs.paused && s.unsubscribedAt === void 0).length,
    unsubscribed: all.filter((s) => s.unsubscribedAt !== void 0).length,
    digest: digest.length,
    outboxesWithWork: withWork.length,
    ready: 0,
    held: 0,
    sending: 0,
    parked: counts.parked,
    staged: counts.staged,
    oldestUndeliveredMs: null
  };
  for (const channel of withWork) {
    const depth = await stores.outbox.depth(channel, nowMs);
    status.ready += depth.ready;
    status.held += depth.waiting - depth.ready;
    status.sending += depth.inflight;
    const oldest = await stores.outbox.oldestUndelivered(channel, nowMs);
    if (oldest !== null)
      status.oldestUndeliveredMs = Math.max(status.oldestUndeliveredMs ?? 0, nowMs - oldest);
  }
  return status;
}
export {
  collectSubscribers
};
