import { Outbox } from '../state/outbox.js';
import type { RedisClient } from '../state/redis-connection.js';
import type { DeliveryParts } from './parts.js';

/**
 * The parts of the delivery path with the outboxes and leases on `redis`, the path's own connection, so
 * that a stuck one can be told apart and replaced without touching the stores every other part uses
 * (src/ops/delivery-liveness.ts). Notices stay on the process's command connection.
 */
export function deliveryParts(parts: DeliveryParts, redis: RedisClient): DeliveryParts {
  const { settings, prefix, processId, now, logger, metrics, notices, durability, subscribers } = parts;
  return {
    settings,
    prefix,
    processId,
    now,
    logger,
    metrics,
    notices,
    durability,
    subscribers,
    redis,
    outbox: new Outbox(redis, prefix),
  };
}
