import type { Plan } from '../budget/index.js';
import type { Config } from '../config/schema.js';
import type { Queues } from './context.js';
import { KEEP_COMPLETED, KEEP_FAILED, SCHEDULER } from './queues.js';

/** The interval at which the sweep job runs under a plan. */
export function sweepEvery(plan: Plan): number {
  return plan.gate ? plan.gateIntervalMs : plan.sweepIntervalMs;
}

/**
 * Makes the job schedulers match the config: one sweep scheduler, one per digest channel, and the
 * optional heartbeat. Upserting the same ids from several processes leaves one scheduler each; ids
 * that no longer belong to the config are removed.
 */
export async function syncSchedulers(queues: Queues, config: Config, plan: Plan): Promise<void> {
  const jobOpts = { removeOnComplete: { count: 200 }, removeOnFail: KEEP_FAILED };
  await queues.sweep.upsertJobScheduler(
    SCHEDULER.sweep,
    { every: sweepEvery(plan) },
    { name: 'sweep', data: {}, opts: jobOpts },
  );
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
        opts: { ...jobOpts, removeOnComplete: KEEP_COMPLETED },
      },
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

/** The schedulers that must exist for the daemon to be ready, with their next run. */
export async function schedulerHealth(
  queues: Queues,
  config: Config,
  now: number,
): Promise<{ id: string; next: number | null; late: boolean }[]> {
  const ids: Array<[string, 'sweep' | 'digest']> = [[SCHEDULER.sweep, 'sweep']];
  for (const c of config.channels) if (c.mode === 'digest') ids.push([SCHEDULER.digest(c.name), 'digest']);
  return Promise.all(
    ids.map(async ([id, queue]) => {
      const scheduler = await (queue === 'sweep' ? queues.sweep : queues.digest).getJobScheduler(id);
      const next = scheduler?.next ?? null;
      // A `next` far in the past means the scheduler stopped producing jobs (a known BullMQ failure mode).
      return { id, next, late: next === null || next < now - 5 * 60_000 };
    }),
  );
}
