import type { ChannelConfig } from '../../config/schema.js';
import { type Retired, type RetireParts, retireChannel } from '../../delivery/retire-channel.js';
import type { ChannelRegistry } from '../../state/channel-registry.js';
import type { Notices } from '../../state/notices.js';
import type { Outbox } from '../../state/outbox.js';
import type { Duty } from '../duty-scheduler.js';
import { BEAT_MS } from './beat.js';

/** What a channel the deployment ran with needs now. */
type ChannelStep = 'nothing' | 'clear-removed-notice' | 'retire';

/** A configured channel needs nothing, or its removal notice cleared; a removed one is retired. */
export function channelStep(configured: boolean, removedNoticeUp: boolean): ChannelStep {
  if (!configured) return 'retire';
  return removedNoticeUp ? 'clear-removed-notice' : 'nothing';
}

/** After retiring: try later (another process drains it), forget it (nothing left) or tell the operator. */
export function afterRetiring(retired: Retired | 'busy', parked: number): 'later' | 'forget' | 'tell' {
  if (retired === 'busy') return 'later';
  return parked === 0 && retired.staged === 0 ? 'forget' : 'tell';
}

/** The stores accounting for channels touches. */
interface ChannelAccountingParts extends RetireParts {
  channels: Pick<ChannelRegistry, 'register' | 'names' | 'forget'>;
  notices: Pick<Notices, 'list' | 'clear' | 'raise'>;
  outbox: RetireParts['outbox'] & Pick<Outbox, 'parked'>;
}

const noticeOf = (name: string) => `channel-removed-${name}`;

/**
 * Registers the configured channels, and parks the queued work of every channel that left the config
 * (see delivery/retire-channel.ts), telling the operator once; a removed channel with nothing left is
 * forgotten. Runs at start, at each reload and at each beat (a process still on the old config may hold
 * a removed channel's lease for a while).
 */
export async function accountForChannels(
  parts: ChannelAccountingParts,
  configured: readonly ChannelConfig[],
): Promise<void> {
  await parts.channels.register(configured);
  const wanted = new Set(configured.map((c) => c.name));
  // One read of the active notices, not one per channel at every beat.
  const active = new Set((await parts.notices.list()).map((n) => n.key));
  for (const name of await parts.channels.names()) {
    const step = channelStep(wanted.has(name), active.has(noticeOf(name)));
    if (step === 'clear-removed-notice')
      await parts.notices.clear(noticeOf(name), `Channel ${name} is configured again.`);
    if (step === 'retire') await retire(parts, name);
  }
}

async function retire(parts: ChannelAccountingParts, name: string): Promise<void> {
  const retired = await retireChannel(parts, name);
  const parked = retired === 'busy' ? 0 : (await parts.outbox.parked(name)).length;
  const next = afterRetiring(retired, parked);
  if (next === 'forget') {
    await parts.notices.clear(noticeOf(name), `Nothing is left queued for ${name}.`);
    await parts.channels.forget(name);
  }
  if (next === 'tell' && retired !== 'busy') {
    await parts.notices.raise(
      noticeOf(name),
      'warning',
      `Channel ${name} was removed with messages still queued`,
      `${parked} messages for ${name} are parked (\`shortwatch deliveries --failed\`) and ${retired.staged} digest events stay staged. Add the channel back and run \`shortwatch deliveries retry --all --channel ${name}\` to send them.`,
    );
  }
}

/** {@link accountForChannels} at every beat, with the channels of the config in force. */
export function channelAccounting(deps: {
  parts: ChannelAccountingParts;
  channels: () => readonly ChannelConfig[];
}): Duty {
  return {
    name: 'channel-accounting',
    periodMs: BEAT_MS,
    reads: "`<t>:channels`, active notices, a removed channel's outbox",
    writes: "`<t>:channels`; a removed channel's outbox parked; the `channel-removed-<ch>` notice",
    failure: 'could not account for removed channels',
    run: () => accountForChannels(deps.parts, deps.channels()),
  };
}
