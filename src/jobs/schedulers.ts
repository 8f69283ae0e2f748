import type { Plan } from '../budget/index.js';
import type { Config } from '../config/schema.js';
import type { Queues } from './context.js';
import { DIGEST_RETRIES, KEEP_COMPLETED, KEEP_FAILED, SCHEDULER } from './queues.js';
import {
  SUBSCRIBER_DIGEST_JOB,
  type SubscriberDigestSchedule,
  subscriberDigestSchedulerId,
} from './subscriber-digest.js';

/** The interval at which the sweep job runs under a plan. */
export function sweepEvery(plan: Plan): number {
  return plan.gate ? plan.gateIntervalMs : plan.sweepIntervalMs;
}

/**
 * Makes the job schedulers match the config: one sweep scheduler (none without `upstream`: a
 * registers-only deployment has no API to sweep), one per digest channel, one per digest schedule some
 * subscribers share (jobs/subscriber-digest.ts), and the optional heartbeat.
 * Upserting the same ids from several processes leaves one scheduler each; ids that no longer belong to
 * the config are removed.
 */
export async function syncSchedulers(
  queues: Queues,
  config: Config,
  plan: Plan,
  subscriberSchedules: readonly SubscriberDigestSchedule[] = [],
): Promise<void> {
  const jobOpts = { removeOnComplete: { count: 200 }, removeOnFail: KEEP_FAILED };
  if (config.upstream === undefined) {
    await queues.sweep.removeJobScheduler(SCHEDULER.sweep);
  } else {
    await queues.sweep.upsertJobScheduler(
      SCHEDULER.sweep,
      { every: sweepEvery(plan) },
      { name: 'sweep', data: {}, opts: jobOpts },
    );
  }
  const wanted = new Set<string>();
  for (const channel of config.channels) {
    if (channel.mode !== 'digest' || !channel.schedule) continue;
    const id = SCHEDULER.digest(channel.name);
    wanted.add(id);
    await queues.digest.upsertJobScheduler(
      id,
      { pattern: channel.schedule, tz: channel.timezone },
      {
        name: 'digest',
        data: { channel: channel.name },
        opts: { ...jobOpts, removeOnComplete: KEEP_COMPLETED, ...DIGEST_RETRIES },
      },
    );
  }
  const digestOpts = { ...jobOpts, removeOnComplete: KEEP_COMPLETED, ...DIGEST_RETRIES };
  for (const schedule of config.subscribers ? subscriberSchedules : []) {
    const id = subscriberDigestSchedulerId(schedule);
    wanted.add(id);
    await queues.digest.upsertJobScheduler(
      id,
      { pattern: schedule.pattern, tz: schedule.timezone },
      { name: SUBSCRIBER_DIGEST_JOB, data: schedule, opts: digestOpts },
    );
  }
  if (config.ops.heartbeat && config.ops.channel) {
    wanted.add(SCHEDULER.heartbeat);
    await queues.digest.upsertJobScheduler(
      SCHEDULER.heartbeat,
      { pattern: config.ops.heartbeat, tz: 'UTC' },
      { name: 'heartbeat', data: {}, opts: jobOpts },
    );
  }
  for (const scheduler of await queues.digest.getJobSchedulers(0, -1)) {
    const id = scheduler.id ?? scheduler.key;
    if (!wanted.has(id)) await queues.digest.removeJobScheduler(id);
  }
}

/** One scheduler the daemon needs: whether `shortwatch start` registered it, its next run, and if it is late. */
export interface SchedulerHealth {
  id: string;
  /** False until a `shortwatch start` process upserts it (a fresh deployment, or a removed one). */
  registered: boolean;
  next: number | null;
  /**
   * A registered scheduler whose next run is over 5 minutes past: nothing produces its jobs (no `start`
   * process runs, or the known BullMQ failure mode). One not registered yet is not late: it has no due
   * time to be late for; readiness counts it as missing.
   */
  late: boolean;
}

/** How long past its next run a scheduler may be (a busy worker, a start-up) before it counts as late. */
const LATE_AFTER_MS = 5 * 60_000;

/** The schedulers that must exist for the daemon to be ready, with their next run. */
export async function schedulerHealth(
  queues: Queues,
  config: Config,
  now: number,
): Promise<SchedulerHealth[]> {
  const ids: Array<[string, 'sweep' | 'digest']> =
    config.upstream === undefined ? [] : [[SCHEDULER.sweep, 'sweep']];
  for (const c of config.channels) if (c.mode === 'digest') ids.push([SCHEDULER.digest(c.name), 'digest']);
  return Promise.all(
    ids.map(async ([id, queue]) => {
      const scheduler = await (queue === 'sweep' ? queues.sweep : queues.digest).getJobScheduler(id);
      const registered = Boolean(scheduler);
      const next = scheduler?.next ?? null;
      return { id, registered, next, late: registered && (next === null || next < now - LATE_AFTER_MS) };
    }),
  );
}
