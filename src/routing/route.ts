import type { ChannelConfig } from '../config/schema.js';
import type { PositionEvent } from '../positions/types.js';
import { matchFilter } from './filter.js';
import { isMuted, type Mute } from './mutes.js';
import { quietUntil } from './quiet-hours.js';

/** What happens to a channel's events now: send, hold until quiet hours end, or stage into a digest. */
export type Disposition =
  | { action: 'send' }
  | { action: 'defer'; until: Date }
  | { action: 'stage'; digest: string };

/** The events of one issuer bound for one channel, with what to do with them. */
export interface RoutedGroup {
  channel: string;
  issuer: { id: string; name: string };
  events: PositionEvent[];
  disposition: Disposition;
}

/** An event a mute kept from a channel. */
export interface Suppressed {
  channel: string;
  eventId: string;
  mute: Mute;
}

/** One channel's verdict on one event, with the reason a person can read. */
export interface RouteVerdict {
  channel: string;
  verdict: 'send' | 'defer' | 'stage' | 'skip' | 'muted';
  reason: string;
}

/** How a channel disposes of its events at `now`: depends on its mode and quiet hours only. */
export function dispositionOf(channel: ChannelConfig, now: Date): Disposition {
  if (channel.mode === 'digest') return { action: 'stage', digest: channel.name };
  const until = channel.quietHours ? quietUntil(channel.quietHours, now) : null;
  if (!until) return { action: 'send' };
  const foldInto = channel.quietHours?.foldInto;
  return foldInto ? { action: 'stage', digest: foldInto } : { action: 'defer', until };
}

/**
 * Routes one poll's events to every channel: one group per (channel, issuer), events in input order.
 * Muted events are left out and listed in `suppressed`; digest channels still stage them unless the
 * mute says `digests: true`. A folded event may reach a digest twice (folded, and through the digest's
 * own filter): staging must be idempotent per (digest, event id).
 */
export function routeEvents(
  events: readonly PositionEvent[],
  channels: readonly ChannelConfig[],
  mutes: readonly Mute[],
  now: Date,
): { groups: RoutedGroup[]; suppressed: Suppressed[] } {
  const groups: RoutedGroup[] = [];
  const suppressed: Suppressed[] = [];
  for (const channel of channels) {
    const disposition = dispositionOf(channel, now);
    const byIssuer = new Map<string, RoutedGroup>();
    for (const event of events) {
      if (!matchFilter(event, channel.filter).pass) continue;
      const mute = isMuted(event, channel, mutes);
      if (mute) {
        suppressed.push({ channel: channel.name, eventId: event.id, mute });
        continue;
      }
      let group = byIssuer.get(event.issuer.id);
      if (!group) {
        group = { channel: channel.name, issuer: event.issuer, events: [], disposition };
        byIssuer.set(event.issuer.id, group);
        groups.push(group);
      }
      group.events.push(event);
    }
  }
  return { groups, suppressed };
}

function describeMute(mute: Mute): string {
  const where = mute.channel === undefined ? 'all channels' : `channel ${mute.channel}`;
  const why = mute.reason ? ` (${mute.reason})` : '';
  return `${mute.scope} "${mute.target}" muted on ${where} until ${new Date(mute.until).toISOString()}${why}`;
}

function describeDisposition(channel: ChannelConfig, disposition: Disposition): RouteVerdict {
  switch (disposition.action) {
    case 'send':
      return { channel: channel.name, verdict: 'send', reason: 'passes filter; sent now' };
    case 'defer':
      return {
        channel: channel.name,
        verdict: 'defer',
        reason: `passes filter; quiet hours, sent at ${disposition.until.toISOString()}`,
      };
    case 'stage':
      return {
        channel: channel.name,
        verdict: 'stage',
        reason:
          disposition.digest === channel.name
            ? 'passes filter; staged for the next digest'
            : `passes filter; quiet hours, folded into digest ${disposition.digest}`,
      };
  }
}

/** Each channel's verdict on one event and why: the answer behind `shortwatch route`. */
export function explainRoute(
  event: PositionEvent,
  channels: readonly ChannelConfig[],
  mutes: readonly Mute[],
  now: Date,
): RouteVerdict[] {
  return channels.map((channel) => {
    const filtered = matchFilter(event, channel.filter);
    if (!filtered.pass) return { channel: channel.name, verdict: 'skip', reason: filtered.reason };
    const mute = isMuted(event, channel, mutes);
    if (mute) return { channel: channel.name, verdict: 'muted', reason: describeMute(mute) };
    return describeDisposition(channel, dispositionOf(channel, now));
  });
}
