import { formatDuration } from '../config/duration.js';

/** How far a channel's backlog is behind: the age of its oldest undelivered message, and whether that is a stall. */
export interface ChannelStall {
  /** Null when nothing is waiting or in flight. */
  ageMs: number | null;
  stalled: boolean;
}

/**
 * Whether a channel is stalled: its oldest undelivered message (ready since `oldestAt`, epoch ms; null
 * when none) has waited longer than `stalledAfterMs` at `nowMs`.
 */
export function channelStall(oldestAt: number | null, nowMs: number, stalledAfterMs: number): ChannelStall {
  if (oldestAt === null) return { ageMs: null, stalled: false };
  const ageMs = Math.max(0, nowMs - oldestAt);
  return { ageMs, stalled: ageMs > stalledAfterMs };
}

/** `channel desk stalled: oldest undelivered message waiting 16m 2s (delivery.stalledAfter 15m)`. */
export function describeStall(channel: string, ageMs: number, stalledAfterMs: number): string {
  return `channel ${channel} stalled: oldest undelivered message waiting ${formatDuration(ageMs)} (delivery.stalledAfter ${formatDuration(stalledAfterMs)})`;
}

/** The key of a channel's stalled notice. */
export function stalledNoticeKey(channel: string): string {
  return `channel-stalled-${channel}`;
}
