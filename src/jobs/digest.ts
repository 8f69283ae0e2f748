import { digestBatchId } from '../state/delivery-ids.js';
import type { JobContext } from './context.js';

/** The data of a digest job, from its channel's job scheduler. */
export interface DigestJobData {
  channel: string;
}

/**
 * Closes one digest period of one channel: one atomic step turns the staged events into a sealed batch in
 * the channel's outbox, from which the deliverer sends it with retries and parking like any message. A
 * failed send is retried as that batch; the next period starts empty. Returns the events sealed.
 */
export async function runDigest(ctx: JobContext, data: DigestJobData, startedAt: Date): Promise<number> {
  const channel = ctx.settings().config.channels.find((c) => c.name === data.channel);
  if (channel?.mode !== 'digest') return 0;
  const now = ctx.now();
  const sealed = await ctx.outbox.sealDigest(channel.name, {
    batchId: digestBatchId(channel.name, now.getTime()),
    to: now.toISOString(),
    timezone: channel.timezone,
    sendEmpty: channel.sendEmpty,
    firstFrom: startedAt.toISOString(),
  });
  return Math.max(0, sealed);
}
