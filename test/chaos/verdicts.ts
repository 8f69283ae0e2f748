import type { Job } from 'bullmq';
import { messageSchema } from '../../src/channels/message-schema.js';
import type { Hazard } from './faults.js';
import { expectedUnits, judge, type StepRecord, type Verdict } from './oracle.js';
import {
  changeTag,
  digestReceived,
  emailReceived,
  messageKey,
  slackReceived,
  webhookReceived,
} from './received.js';
import { ALERTS_TO, type ChaosWorld, DIGEST_TO } from './world.js';

const STATES = ['completed', 'failed', 'active', 'wait', 'delayed'] as const;

/** A delivery job's message keyed as the message oracle keys what Slack and email received. */
function keyOfJob(job: Job): string | undefined {
  const parsed = messageSchema.safeParse(job.data?.message);
  if (!parsed.success || parsed.data.type !== 'events') return undefined;
  const tags = parsed.data.events.map((e) =>
    changeTag(e.kind, e.previous?.value ?? null, e.current?.value ?? null),
  );
  return messageKey(parsed.data.issuer.id, tags);
}

/**
 * For message duplicates nothing explains: the delivery jobs of that channel carrying the same issuer
 * and kinds, with their attempts, stalls and times, so the story shows how the repeat came about.
 */
export async function diagnoseDuplicates(
  world: ChaosWorld,
  verdict: Verdict,
  queueChannel: string,
  startedAt: number,
): Promise<string[]> {
  const bad = verdict.duplicates.filter((d) => d.explainedBy === undefined).slice(0, 5);
  if (bad.length === 0) return [];
  const jobs = await world.queues.deliver(queueChannel).getJobs([...STATES], 0, 5_000);
  const t = (ms: number | undefined) =>
    ms === undefined ? '-' : `+${((ms - startedAt) / 1000).toFixed(1)}s`;
  return Promise.all(
    bad.map(async (d) => {
      // Jobs of that key that ran around either copy: what sent it, and how often.
      const near = (job: Job) =>
        [d.original.at, d.unit.at].some(
          (at) =>
            (job.processedOn ?? 0) <= at + 2_000 &&
            (job.finishedOn ?? Number.POSITIVE_INFINITY) >= at - 5_000,
        );
      const matching = jobs.filter((job) => keyOfJob(job) === d.unit.key && near(job));
      const described = await Promise.all(
        matching.map(
          async (job) =>
            `job ${job.id} ${await job.getState()} attempts ${job.attemptsMade}/${job.attemptsStarted} stalled ${job.stalledCounter} added ${t(job.timestamp)} processed ${t(job.processedOn)} finished ${t(job.finishedOn)}${job.failedReason ? ` (${job.failedReason.slice(0, 80)})` : ''}`,
        ),
      );
      return `${verdict.channel} ${d.unit.key}: ${described.join(' | ') || 'no job found'}`;
    }),
  );
}

/** Each channel's verdict: events on the webhook, messages on Slack and email, lines in the digests. */
export function judgeChannels(
  world: ChaosWorld,
  steps: readonly StepRecord[],
  hazards: readonly Hazard[],
): Verdict[] {
  const { scenario } = world.stack.sandbox;
  const expected = expectedUnits(steps, (id) => scenario.issuer(id)?.name ?? id);
  const { slack, smtp } = world.stack;
  return [
    judge({
      channel: 'hook (webhook)',
      unitName: 'event',
      expected: expected.events,
      received: webhookReceived(world.receiver),
      hazards,
      exactlyOnce: true,
    }),
    judge({
      channel: 'desk (Slack)',
      unitName: 'message',
      expected: expected.messages,
      received: slackReceived(slack.posts),
      hazards,
      exactlyOnce: false,
    }),
    judge({
      channel: 'alerts (email)',
      unitName: 'message',
      expected: expected.messages,
      received: emailReceived(smtp.mails, ALERTS_TO),
      hazards,
      exactlyOnce: false,
    }),
    judge({
      channel: 'morning (digest)',
      unitName: 'digest line',
      expected: expected.digest,
      received: digestReceived(smtp.mails, DIGEST_TO),
      hazards,
      exactlyOnce: false,
    }),
  ];
}
