import type { ChannelConfig, ChannelFilter } from '../config/schema.js';
import { Secret } from '../config/secret.js';
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
  subscriberRouteChannel,
  wantsDigest,
  wantsImmediate,
} from './subscriber.js';

/** The e-mail channel whose server and sender carry subscribers' messages. */
type EmailChannel = Extract<ChannelConfig, { kind: 'email' }>;
type WebhookChannel = Extract<ChannelConfig, { kind: 'webhook' }>;
type SlackAppChannel = Extract<ChannelConfig, { kind: 'slack-app' }>;

/** The configured channels subscribers' messages go through (`subscribers.email`, `.webhook`, `.slack`). */
export interface SubscriberTemplates {
  email: EmailChannel;
  webhook?: WebhookChannel | undefined;
  slack?: SlackAppChannel | undefined;
}

/** The configured channels `subscribers` names, by kind; undefined without the section or its e-mail channel. */
export function subscriberTemplates(config: {
  subscribers?: { email: string; webhook?: string | undefined; slack?: string | undefined } | undefined;
  channels: readonly ChannelConfig[];
}): SubscriberTemplates | undefined {
  const settings = config.subscribers;
  if (!settings) return undefined;
  const named = <K extends ChannelConfig['kind']>(name: string | undefined, kind: K) =>
    config.channels.find((c): c is Extract<ChannelConfig, { kind: K }> => c.name === name && c.kind === kind);
  const email = named(settings.email, 'email');
  if (!email) return undefined;
  return { email, webhook: named(settings.webhook, 'webhook'), slack: named(settings.slack, 'slack-app') };
}

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

/** What every immediate route of a subscriber shares: their filter, quiet hours, the outbox's name. */
function immediateFields(subscriber: Subscriber, issuerFollowed: boolean, name: string) {
  const { prefs, watch } = subscriber;
  const filter: ChannelFilter = {
    ...(prefs.kinds.length > 0 ? { kinds: prefs.kinds } : {}),
    ...(prefs.minValue === undefined ? {} : { minValue: prefs.minValue }),
    ...(prefs.minDelta === undefined ? {} : { minDelta: prefs.minDelta }),
    ...(issuerFollowed ? {} : { holders: watch.holders }),
  };
  return { name, filter, mode: 'immediate' as const, quietHours: prefs.quietHours, everyChange: false };
}

function subscriberImmediateConfig(
  subscriber: Subscriber,
  template: EmailChannel,
  issuerFollowed: boolean,
): EmailChannel {
  return {
    ...template,
    ...immediateFields(subscriber, issuerFollowed, subscriberChannel(subscriber.id)),
    to: [subscriber.email],
  };
}

/**
 * The subscriber's personal webhook as a channel: the template's signing key, timeout and rate, their
 * URL. Undefined when they have none or no `subscribers.webhook` is configured.
 */
export function subscriberWebhookConfig(
  subscriber: Subscriber,
  template: WebhookChannel | undefined,
  issuerFollowed: boolean,
): WebhookChannel | undefined {
  if (!template || subscriber.webhook === undefined) return undefined;
  const name = subscriberRouteChannel(subscriber.id, 'webhook');
  return {
    ...template,
    ...immediateFields(subscriber, issuerFollowed, name),
    url: new Secret(subscriber.webhook),
  };
}

/**
 * The subscriber's Slack DM as a channel: the template app's bot and rate, posting to their user alone
 * (an id, or an address looked up). Undefined when they have none or no `subscribers.slack` is configured.
 */
export function subscriberSlackConfig(
  subscriber: Subscriber,
  template: SlackAppChannel | undefined,
  issuerFollowed: boolean,
): SlackAppChannel | undefined {
  if (!template || subscriber.slackUser === undefined) return undefined;
  const name = subscriberRouteChannel(subscriber.id, 'slack');
  const { channel: _desk, ...app } = template;
  return {
    ...app,
    ...immediateFields(subscriber, issuerFollowed, name),
    directMessages: [subscriber.slackUser],
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
  templates: SubscriberTemplates,
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
      const channels = subscriberRoutes(subscriber, templates, issuerFollowed);
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

/**
 * Each route a subscriber wants, as a channel: e-mail at once, and their webhook and Slack DM with it
 * (each its own outbox, so each keeps the outbox's guarantees on its own), and the digest.
 */
function subscriberRoutes(
  subscriber: Subscriber,
  templates: SubscriberTemplates,
  issuerFollowed: boolean,
): ChannelConfig[] {
  const routes: Array<ChannelConfig | undefined> = [];
  if (wantsImmediate(subscriber))
    routes.push(
      subscriberChannelConfig(subscriber, templates.email, issuerFollowed),
      subscriberWebhookConfig(subscriber, templates.webhook, issuerFollowed),
      subscriberSlackConfig(subscriber, templates.slack, issuerFollowed),
    );
  if (wantsDigest(subscriber))
    routes.push(subscriberChannelConfig(subscriber, templates.email, issuerFollowed, true));
  return routes.filter((route): route is ChannelConfig => route !== undefined);
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
