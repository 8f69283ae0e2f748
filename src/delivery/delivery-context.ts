import type { JobContext } from '../jobs/context.js';
import { Outbox } from '../state/outbox.js';
import type { RedisClient } from '../state/redis-connection.js';

/**
 * The job context of the delivery path: the process's own, with the outboxes and leases on `redis`, the
 * delivery path's own connection, so that a stuck one can be told apart and replaced without touching
 * the stores every other part uses (src/ops/delivery-liveness.ts).
 */
export function deliveryContext(ctx: JobContext, redis: RedisClient): JobContext {
  return {
    settings: ctx.settings,
    prefix: ctx.prefix,
    processId: ctx.processId,
    redis,
    now: ctx.now,
    logger: ctx.logger,
    metrics: ctx.metrics,
    upstream: ctx.upstream,
    probe: ctx.probe,
    budget: ctx.budget,
    access: ctx.access,
    snapshots: ctx.snapshots,
    pollHealth: ctx.pollHealth,
    epoch: ctx.epoch,
    eventLog: ctx.eventLog,
    directory: ctx.directory,
    mutes: ctx.mutes,
    notices: ctx.notices,
    outbox: new Outbox(redis, ctx.prefix),
    channels: ctx.channels,
    // Read through: the queues open on first use (a refused start must leave Redis as it found it).
    get queues() {
      return ctx.queues;
    },
  };
}
