import { digestBatchId } from '../state/delivery-ids.js';
import type { JobContext } from './context.js';

/** The data of a digest job, from its channel's job scheduler, and the period it was planned for. */
export interface DigestJobData {
  channel: string;
  /** When the scheduler planned the run (epoch ms): the period's identity, the same on every retry. */
  scheduledAt: number;
}

/**
 * Closes one digest period of one channel: one atomic step turns the staged events into a sealed batch in
 * the channel's outbox, from which the deliverer sends it with retries and parking like any message. The
 * batch id derives from the period's planned time, and a period is sealed once, so the job may be retried
 * (an error from Redis) or run again (stalled) without a second digest. Returns the events sealed.
 */
export async function runDigest(ctx: JobContext, data: DigestJobData, startedAt: Date): Promise<number> {
  const channel = ctx.settings().config.channels.find((c) => c.name === data.channel);
  if (channel?.mode !== 'digest') return 0;
  const now = ctx.now();
  const sealed = await ctx.outbox.sealDigest(channel.name, {
    batchId: digestBatchId(channel.name, data.scheduledAt),
    scheduledAt: data.scheduledAt,
    to: now.toISOString(),
    timezone: channel.timezone,
    sendEmpty: channel.sendEmpty,
    firstFrom: startedAt.toISOString(),
  });
  if (sealed === -2)
    ctx.logger.info({ channel: channel.name, scheduledAt: data.scheduledAt }, 'digest period sealed already');
  return Math.max(0, sealed);
}
