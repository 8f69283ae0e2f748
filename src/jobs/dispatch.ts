import type { DeliveryJobData } from '../channels/message-schema.js';
import type { Message } from '../channels/types.js';
import type { ChannelConfig } from '../config/schema.js';
import type { RoutedGroup } from '../routing/index.js';
import type { JobContext } from './context.js';
import { deliveryJobId, KEEP_COMPLETED, KEEP_FAILED } from './queues.js';

/** BullMQ options of a delivery job: the channel's attempts and exponential backoff with jitter. */
export function deliveryJobOptions(channel: ChannelConfig, jobId: string, delayMs = 0) {
  return {
    jobId,
    delay: Math.max(0, delayMs),
    attempts: channel.attempts,
    backoff: { type: 'exponential', delay: channel.backoff, jitter: 0.5 },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/** Queues one message for one channel; the job id makes a replay a no-op. */
export async function enqueueDelivery(
  ctx: JobContext,
  channel: ChannelConfig,
  message: Message,
  jobId: string,
  delayMs = 0,
): Promise<void> {
  const data: DeliveryJobData = { channel: channel.name, message, partsSent: 0 };
  await ctx.queues.deliver(channel.name).add('deliver', data, deliveryJobOptions(channel, jobId, delayMs));
}

/** Hands routed groups to their channels: a delivery job now or later, or the digest's staging. */
export async function dispatchGroups(ctx: JobContext, groups: readonly RoutedGroup[]): Promise<void> {
  const channels = new Map(ctx.settings().config.channels.map((c) => [c.name, c]));
  const now = ctx.now().getTime();
  for (const group of groups) {
    const { disposition } = group;
    if (disposition.action === 'stage') {
      await ctx.digests.stage(disposition.digest, group.events, ctx.now());
      continue;
    }
    const channel = channels.get(group.channel);
    if (!channel) continue;
    const message: Message = { type: 'events', issuer: group.issuer, events: group.events };
    const jobId = deliveryJobId(
      channel.name,
      group.events.map((e) => e.id),
    );
    const delay = disposition.action === 'defer' ? disposition.until.getTime() - now : 0;
    await enqueueDelivery(ctx, channel, message, jobId, delay);
  }
}
