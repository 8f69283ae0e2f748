import type { ChannelConfig, ChannelFilter } from '../config/schema.js';
import { HolderIdentities } from '../positions/holder-identity.js';
import type { PositionEvent } from '../positions/types.js';
import { issuerMatches } from './match-keys.js';
import type { Mute } from './mutes.js';
import { type DeliveryPlan, planDelivery } from './plan-delivery.js';
import type { RouteOptions } from './route.js';
import {
  isSilenced,
  type Subscriber,
  subscriberChannel,
  subscriberDigestChannel,
  wantsDigest,
  wantsImmediate,
} from './subscriber.js';

/** The e-mail channel whose server and sender carry subscribers' messages. */
type EmailChannel = Extract<ChannelConfig, { kind: 'email' }>;

/** True when the subscriber follows the event's issuer (any holder). */
export function followsIssuer(subscriber: Subscriber, issuer: { id: string; name: string }): boolean {
  const entries = subscriber.watch.issuers;
  // By id first: a plain comparison, where matching a name normalises each entry (a fan-out asks this
  // for every follower of every issuer in a commit).
  return entries.includes(issuer.id) || entries.some((entry) => issuerMatches(entry, issuer));
}

/** True when the subscriber follows the event's holder wherever it is short. */
function followsHolder(subscriber: Subscriber, event: PositionEvent, holders: HolderIdentities): boolean {
  return !event.aggregate && subscriber.watch.holders.some((entry) => holders.matches(entry, event));
}

/**
 * The subscriber as a channel for one issuer's events: the template's server and sender, their address,
 * and a filter that says what they want. Following the issuer passes every holder; following only some
 * of its holders passes those. `digest`: their digest channel, on their own schedule and time zone,
 * sealed by the digest worker as a configured digest channel is (jobs/subscriber-digest.ts).
 */
export function subscriberChannelConfig(
  subscriber: Subscriber,
  template: EmailChannel,
  issuerFollowed: boolean,
  digest = false,
): EmailChannel {
  const { prefs } = subscriber;
  const base = subscriberImmediateConfig(subscriber, template, issuerFollowed);
  if (!digest) return base;
  return {
    ...base,
    name: subscriberDigestChannel(subscriber.id),
    mode: 'digest',
    schedule: prefs.digestSchedule,
    timezone: prefs.timezone,
    quietHours: undefined,
  };
}

function subscriberImmediateConfig(
  subscriber: Subscriber,
  template: EmailChannel,
  issuerFollowed: boolean,
): EmailChannel {
  const { prefs, watch } = subscriber;
  const filter: ChannelFilter = {
    ...(prefs.kinds.length > 0 ? { kinds: prefs.kinds } : {}),
    ...(prefs.minValue === undefined ? {} : { minValue: prefs.minValue }),
    ...(prefs.minDelta === undefined ? {} : { minDelta: prefs.minDelta }),
    ...(issuerFollowed ? {} : { holders: watch.holders }),
  };
  return {
    ...template,
    name: subscriberChannel(subscriber.id),
    to: [subscriber.email],
    filter,
    mode: 'immediate',
    quietHours: prefs.quietHours,
    everyChange: false,
  };
}

/**
 * Where one commit's events go among the subscribers who follow them: per subscriber, the same routing
 * as a configured channel (mutes for every channel, flap holds, quiet hours), never a verdict in the event
 * log (thousands of subscribers would swamp it; what each received is in the record of sent messages).
 * Paused and unsubscribed subscribers get nothing. Pure.
 */
export function planSubscribers(
  events: readonly PositionEvent[],
  subscribers: readonly Subscriber[],
  template: EmailChannel,
  mutes: readonly Mute[],
  now: Date,
  options?: RouteOptions,
): DeliveryPlan['targets'] {
  const targets: DeliveryPlan['targets'] = [];
  for (const issuerEvents of byIssuer(events)) {
    const issuer = issuerEvents[0]?.issuer;
    if (!issuer) continue;
    for (const subscriber of subscribers) {
      if (isSilenced(subscriber)) continue;
      const issuerFollowed = followsIssuer(subscriber, issuer);
      const wanted = issuerEvents.filter(
        (event) =>
          (issuerFollowed && (subscriber.prefs.aggregates || !event.aggregate)) ||
          followsHolder(subscriber, event, options?.holders ?? HolderIdentities.none),
      );
      if (wanted.length === 0) continue;
      const channels = [
        ...(wantsImmediate(subscriber)
          ? [subscriberChannelConfig(subscriber, template, issuerFollowed)]
          : []),
        ...(wantsDigest(subscriber)
          ? [subscriberChannelConfig(subscriber, template, issuerFollowed, true)]
          : []),
      ];
      // Planned over all of the issuer's events, so a message says what of the issuer it leaves out.
      const plan = planDelivery(issuerEvents, channels, mutes, now, options);
      const ids = new Set(wanted.map((event) => event.id));
      for (const target of plan.targets) {
        const events = target.events.filter((event) => ids.has(event.id));
        if (events.length > 0) targets.push({ ...target, events });
      }
    }
  }
  return targets;
}

function byIssuer(events: readonly PositionEvent[]): PositionEvent[][] {
  const groups = new Map<string, PositionEvent[]>();
  for (const event of events) {
    const group = groups.get(event.issuer.id) ?? [];
    group.push(event);
    groups.set(event.issuer.id, group);
  }
  return [...groups.values()];
}
