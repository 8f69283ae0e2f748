import {
  isSilenced,
  type Subscriber,
  subscriberChannel,
  subscriberDigestChannel,
  subscriberRouteChannel,
  wantsDigest,
} from '../routing/subscriber.js';
import type { Outbox } from '../state/outbox.js';
import type { SubscriberStore } from '../state/subscriber-store.js';

/** Subscribers and their outboxes, summed, as `status` and `/metrics` show them. */
export interface SubscribersStatus {
  total: number;
  /** Sent to now (neither paused nor unsubscribed). */
  active: number;
  paused: number;
  unsubscribed: number;
  /** In mode `digest` or `both`. */
  digest: number;
  /** Subscribers' outboxes (immediate or digest) with work now: what the deliverers look at. */
  outboxesWithWork: number;
  /** Their outboxes' items: ready to send, held (quiet hours), being sent, parked (dead letter), staged for a digest. */
  ready: number;
  held: number;
  sending: number;
  parked: number;
  staged: number;
  /** Age of the oldest undelivered message over every subscriber's outbox, null when none. */
  oldestUndeliveredMs: number | null;
}

/** The outbox channels of the routes a subscriber uses now: e-mail, and their digest, webhook, Slack DM. */
function routesInUse(s: Subscriber): string[] {
  return [
    subscriberChannel(s.id),
    ...(wantsDigest(s) ? [subscriberDigestChannel(s.id)] : []),
    ...(s.webhook === undefined ? [] : [subscriberRouteChannel(s.id, 'webhook')]),
    ...(s.slackUser === undefined ? [] : [subscriberRouteChannel(s.id, 'slack')]),
  ];
}

/** What the summary reads. */
export interface SubscriberStatusStores {
  subscribers: Pick<SubscriberStore, 'list'>;
  outbox: Pick<Outbox, 'subscriberChannelsWithWork' | 'depth' | 'oldestUndelivered' | 'parkedAndStaged'>;
}

/**
 * Every subscriber counted by state, the queues of those with work (the list the deliverers keep), and
 * parked and staged counts of all of them in one pipelined read: a summary of 2,000 subscribers is three
 * round trips and a few per outbox with work, never one per subscriber.
 */
export async function collectSubscribers(
  stores: SubscriberStatusStores,
  nowMs: number,
): Promise<SubscribersStatus> {
  const all = await stores.subscribers.list();
  const digest = all.filter(wantsDigest);
  const counts = await stores.outbox.parkedAndStaged(all.flatMap(routesInUse));
  const withWork = await stores.outbox.subscriberChannelsWithWork();
  const status: SubscribersStatus = {
    total: all.length,
    active: all.filter((s) => !isSilenced(s)).length,
    paused: all.filter((s) => s.prefs.paused && s.unsubscribedAt === undefined).length,
    unsubscribed: all.filter((s) => s.unsubscribedAt !== undefined).length,
    digest: digest.length,
    outboxesWithWork: withWork.length,
    ready: 0,
    held: 0,
    sending: 0,
    parked: counts.parked,
    staged: counts.staged,
    oldestUndeliveredMs: null,
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
