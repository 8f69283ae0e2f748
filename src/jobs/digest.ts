import type { JobContext } from './context.js';
import { enqueueDelivery } from './dispatch.js';

/** The data of a digest job, from its channel's job scheduler. */
export interface DigestJobData {
  channel: string;
}

/**
 * Closes one digest period of one channel: the staged events become one delivery job whose id is the
 * batch id, so a run that crashed after queuing it queues nothing twice, and a crashed delivery is
 * retried like any other.
 */
export async function runDigest(ctx: JobContext, data: DigestJobData, startedAt: Date): Promise<number> {
  const channel = ctx.settings().config.channels.find((c) => c.name === data.channel);
  if (channel?.mode !== 'digest') return 0;
  const batch = await ctx.digests.claim(channel.name, ctx.now(), startedAt);
  if (batch.events.length > 0 || channel.sendEmpty) {
    const events = [...batch.events].sort((a, b) => b.detectedAt.localeCompare(a.detectedAt));
    await enqueueDelivery(
      ctx,
      channel,
      { type: 'digest', period: { from: batch.from, to: batch.to, timezone: channel.timezone }, events },
      batch.batchId,
    );
  }
  await ctx.digests.finish(channel.name, batch);
  return batch.events.length;
}
