import { cronPatternProblem } from '../preflight/cron-pattern.js';
import { subscriberDigestChannel, wantsDigest } from '../routing/subscriber.js';
import { digestBatchId, shortHash } from '../state/delivery-ids.js';
import type { JobContext } from './context.js';

/** One digest schedule some subscribers share: their cron pattern and time zone. */
export interface SubscriberDigestSchedule {
  pattern: string;
  timezone: string;
}

/** What the digest worker gets for one run of a shared schedule, and the period it was planned for. */
export interface SubscriberDigestJobData extends SubscriberDigestSchedule {
  scheduledAt: number;
}

/** The job name of a subscribers' digest run, beside a configured channel's `digest`. */
export const SUBSCRIBER_DIGEST_JOB = 'subscriber-digest';

/**
 * The scheduler id of one shared schedule: subscribers with one schedule share one BullMQ job scheduler,
 * so 2,000 subscribers on the default cost one scheduler, not 2,000.
 */
export function subscriberDigestSchedulerId(schedule: SubscriberDigestSchedule): string {
  return `subscriber-digest-${shortHash(`${schedule.pattern}|${schedule.timezone}`, 12)}`;
}

/**
 * The distinct schedules of the subscribers who want a digest (mode `digest` or `both`). A pattern the
 * scheduler cannot read (an import that slipped one past) is left out and logged: one subscriber's typo
 * must not stop the deployment's schedulers from being upserted.
 */
export async function subscriberDigestSchedules(
  ctx: Pick<JobContext, 'subscribers' | 'logger'>,
): Promise<SubscriberDigestSchedule[]> {
  const schedules = new Map<string, SubscriberDigestSchedule>();
  for (const subscriber of await ctx.subscribers.list()) {
    if (!wantsDigest(subscriber)) continue;
    const schedule = { pattern: subscriber.prefs.digestSchedule, timezone: subscriber.prefs.timezone };
    const problem = cronPatternProblem(schedule.pattern, schedule.timezone);
    if (problem === undefined) schedules.set(subscriberDigestSchedulerId(schedule), schedule);
    else ctx.logger.warn({ subscriber: subscriber.id, ...schedule }, `digest schedule not used: ${problem}`);
  }
  return [...schedules.values()];
}

/**
 * Closes one period of every subscriber on this schedule: per subscriber, the seal a configured digest
 * channel gets (jobs/digest.ts), into their digest channel's outbox, with a batch id from the period's
 * planned time, so a retried or re-run job seals nothing twice. An empty period sends nothing. Returns
 * the events sealed.
 */
export async function runSubscriberDigests(
  ctx: Pick<JobContext, 'subscribers' | 'outbox' | 'now'>,
  data: SubscriberDigestJobData,
  startedAt: Date,
): Promise<number> {
  let sealed = 0;
  const to = ctx.now().toISOString();
  for (const subscriber of await ctx.subscribers.list()) {
    const { prefs } = subscriber;
    if (!wantsDigest(subscriber) || prefs.digestSchedule !== data.pattern || prefs.timezone !== data.timezone)
      continue;
    const channel = subscriberDigestChannel(subscriber.id);
    const count = await ctx.outbox.sealDigest(channel, {
      batchId: digestBatchId(channel, data.scheduledAt),
      scheduledAt: data.scheduledAt,
      to,
      timezone: prefs.timezone,
      sendEmpty: false,
      firstFrom: startedAt.toISOString(),
    });
    sealed += Math.max(0, count);
  }
  return sealed;
}
