import { ALERT_DEFAULTS } from '../config/schema/alerts.js';
import type { ChannelConfig, Config } from '../config/schema.js';
import { HolderIdentities } from '../positions/holder-identity.js';
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

/** What routing needs of the config beyond the channels: the `alerts` section and the ops channel. */
export interface RouteOptions {
  confirmedCloses: 'digest' | 'silent';
  /** The channel named by `ops.channel`: it carries notices and the heartbeat, never events. */
  opsChannel: string | undefined;
  /** One holder across registers (`holders.aliases`): what a `holders` entry or a holder mute names. */
  holders?: HolderIdentities;
}

const DEFAULT_ROUTE_OPTIONS: RouteOptions = {
  confirmedCloses: ALERT_DEFAULTS.confirmedCloses,
  opsChannel: undefined,
};

/** The routing options a config gives: every router (API polls, registers, `route`) reads them here. */
export function routeOptionsOf(config: Pick<Config, 'alerts' | 'ops' | 'holders'>): RouteOptions {
  return {
    confirmedCloses: config.alerts.confirmedCloses,
    opsChannel: config.ops.channel,
    holders: new HolderIdentities(config.holders.aliases),
  };
}

/** Why the ops channel skips every event, as `route` and the event log say it. */
export const OPS_CHANNEL_SKIP = 'the ops channel (ops.channel): notices and the heartbeat only, no events';

/** How a channel disposes of its events at `now`: depends on its mode and quiet hours only. */
export function dispositionOf(channel: ChannelConfig, now: Date): Disposition {
  if (channel.mode === 'digest') return { action: 'stage', digest: channel.name };
  const until = channel.quietHours ? quietUntil(channel.quietHours, now) : null;
  if (!until) return { action: 'send' };
  const foldInto = channel.quietHours?.foldInto;
  return foldInto ? { action: 'stage', digest: foldInto } : { action: 'defer', until };
}

/** One channel's decision on one event: left out (and why), muted, or its disposition. */
type Decision =
  | { outcome: 'skip'; reason: string }
  | { outcome: 'muted'; mute: Mute }
  | { outcome: 'route'; disposition: Disposition; held: boolean };

/**
 * The one decision behind routing and its explanation: the filter, then mutes, then the threshold
 * story (a confirmed close is not told twice to people), then the disposition, held while the holder flaps.
 */
function decide(
  event: PositionEvent,
  channel: ChannelConfig,
  mutes: readonly Mute[],
  now: Date,
  options: RouteOptions,
): Decision {
  // The operator's channel is for operators: an alert there buries the notice it exists for.
  if (channel.name === options.opsChannel) return { outcome: 'skip', reason: OPS_CHANNEL_SKIP };
  const filtered = matchFilter(event, channel.filter, options.holders);
  if (!filtered.pass) return { outcome: 'skip', reason: filtered.reason };
  const mute = isMuted(event, channel, mutes, options.holders);
  if (mute) return { outcome: 'muted', mute };
  const disposition = dispositionOf(channel, now);
  if (channel.everyChange) return { outcome: 'route', disposition, held: false };
  if (event.story?.kind === 'below-confirmed' && toldFall(event.story.toldTo, channel.name)) {
    const quietLine = disposition.action === 'stage' && options.confirmedCloses === 'digest';
    if (!quietLine) {
      return {
        outcome: 'skip',
        reason: `already told: fell below the 0.5% disclosure threshold (${event.story.fellBelowOn}); its leaving the register is in the event log${disposition.action === 'stage' ? ' (alerts.confirmedCloses: silent)' : ''}`,
      };
    }
  }
  const hold = event.hold;
  if (hold && disposition.action !== 'stage') {
    // Sent when the hold ends, unless quiet hours hold the channel then (or now, for longer).
    const end = new Date(hold.until);
    const quietAtEnd = channel.quietHours ? quietUntil(channel.quietHours, end) : null;
    const candidates = [end, quietAtEnd, disposition.action === 'defer' ? disposition.until : null];
    const until = new Date(Math.max(...candidates.map((date) => date?.getTime() ?? 0)));
    return { outcome: 'route', disposition: { action: 'defer', until }, held: true };
  }
  return { outcome: 'route', disposition, held: false };
}

/**
 * Whether this channel was told the holder's fall below the threshold: its own record, not any
 * channel's (a channel that filtered the fall out hears of it through the close). No record is told to
 * none: a close told twice is noise, a close never told is a position the desk thinks still open.
 */
function toldFall(toldTo: readonly string[] | undefined, channel: string): boolean {
  return toldTo?.includes(channel) ?? false;
}

/**
 * Routes one poll's events to every channel: one group per (channel, issuer, disposition), events in
 * input order. Muted events are left out and listed in `suppressed`; digest channels still stage them
 * unless the mute says `digests: true`. A folded event may reach a digest twice (folded, and through the
 * digest's own filter): staging must be idempotent per (digest, event id). `verdicts` holds, per event,
 * every channel's verdict from the same decisions.
 */
export function routeEvents(
  events: readonly PositionEvent[],
  channels: readonly ChannelConfig[],
  mutes: readonly Mute[],
  now: Date,
  options: RouteOptions = DEFAULT_ROUTE_OPTIONS,
): { groups: RoutedGroup[]; suppressed: Suppressed[]; verdicts: RouteVerdict[][] } {
  const groups: RoutedGroup[] = [];
  const suppressed: Suppressed[] = [];
  // Each event's verdicts, in channel order (what `explainRoute` says), from the same decisions.
  const verdicts: RouteVerdict[][] = events.map(() => []);
  for (const channel of channels) {
    const byKey = new Map<string, RoutedGroup>();
    for (const [index, event] of events.entries()) {
      const decision = decide(event, channel, mutes, now, options);
      verdicts[index]?.push(verdictOf(channel, decision));
      if (decision.outcome === 'skip') continue;
      if (decision.outcome === 'muted') {
        suppressed.push({ channel: channel.name, eventId: event.id, mute: decision.mute });
        continue;
      }
      const { disposition } = decision;
      const key = `${event.issuer.id}|${dispositionKey(disposition)}`;
      let group = byKey.get(key);
      if (!group) {
        group = { channel: channel.name, issuer: event.issuer, events: [], disposition };
        byKey.set(key, group);
        groups.push(group);
      }
      group.events.push(event);
    }
  }
  return { groups, suppressed, verdicts };
}

function dispositionKey(disposition: Disposition): string {
  switch (disposition.action) {
    case 'send':
      return 'send';
    case 'defer':
      return `defer:${disposition.until.getTime()}`;
    case 'stage':
      return `stage:${disposition.digest}`;
  }
}

function describeMute(mute: Mute): string {
  const where = mute.channel === undefined ? 'all channels' : `channel ${mute.channel}`;
  const why = mute.reason ? ` (${mute.reason})` : '';
  return `${mute.scope} "${mute.target}" muted on ${where} until ${new Date(mute.until).toISOString()}${why}`;
}

function describeDisposition(channel: ChannelConfig, disposition: Disposition, held: boolean): RouteVerdict {
  switch (disposition.action) {
    case 'send':
      return { channel: channel.name, verdict: 'send', reason: 'passes filter; sent now' };
    case 'defer':
      return {
        channel: channel.name,
        verdict: 'defer',
        reason: held
          ? `passes filter; the holder is flapping around 0.5%: held until ${disposition.until.toISOString()} and sent with its other changes in one message`
          : `passes filter; quiet hours, sent at ${disposition.until.toISOString()}`,
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
  options: RouteOptions = DEFAULT_ROUTE_OPTIONS,
): RouteVerdict[] {
  return channels.map((channel) => verdictOf(channel, decide(event, channel, mutes, now, options)));
}

function verdictOf(channel: ChannelConfig, decision: Decision): RouteVerdict {
  switch (decision.outcome) {
    case 'skip':
      return { channel: channel.name, verdict: 'skip', reason: decision.reason };
    case 'muted':
      return { channel: channel.name, verdict: 'muted', reason: describeMute(decision.mute) };
    case 'route':
      return describeDisposition(channel, decision.disposition, decision.held);
  }
}
