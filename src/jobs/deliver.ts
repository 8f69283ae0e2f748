import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { isDeliveryError } from '../channels/delivery-error.js';
import { deliveryJobSchema } from '../channels/message-schema.js';
import type { JobContext } from './context.js';

/** What the deliver processor needs besides the context: the queue it pauses on a 429. */
export interface DeliverTarget {
  channel: string;
  pause(ms: number): Promise<void>;
}

/**
 * Sends one queued message to its channel. Domain errors become queue outcomes here, in one place:
 * a 429 pauses this channel's queue for Retry-After (the attempt is not charged), a retryable failure
 * is retried with backoff, a permanent one parks the job at once (it stays failed: the dead letter).
 */
export async function runDelivery(ctx: JobContext, job: Job, target: DeliverTarget): Promise<void> {
  const data = deliveryJobSchema.parse(job.data);
  const sender = ctx.settings().senders.get(data.channel);
  if (!sender) throw new UnrecoverableError(`channel "${data.channel}" is no longer configured`);
  let partsSent = data.partsSent;
  try {
    await sender.send(data.message, {
      partsSent,
      deliveryId: job.id,
      onPartSent: async (sent) => {
        partsSent = sent;
        await job.updateData({ ...data, partsSent });
      },
    });
    ctx.metrics.deliveries.inc({ channel: data.channel, outcome: 'sent' });
  } catch (error) {
    if (!isDeliveryError(error)) throw error;
    if (error.outcome === 'rate-limit') {
      ctx.metrics.deliveries.inc({ channel: data.channel, outcome: 'rate_limited' });
      await target.pause(error.retryAfterMs ?? 1_000);
      throw Worker.RateLimitError();
    }
    if (error.outcome === 'park') {
      ctx.metrics.deliveries.inc({ channel: data.channel, outcome: 'parked' });
      await ctx.notices.raise(
        `channel-parked-${data.channel}`,
        'critical',
        `Deliveries to ${data.channel} are parked`,
        `${error.message}. Fix the channel, then run: shortwatch deliveries retry --all`,
      );
      throw new UnrecoverableError(error.message);
    }
    ctx.metrics.deliveries.inc({ channel: data.channel, outcome: 'retried' });
    throw error;
  }
}
